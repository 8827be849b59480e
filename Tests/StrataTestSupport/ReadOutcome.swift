import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore

/// What reading a store file (or its bytes in memory) did: the image, a typed refusal naming
/// the file, or another error (which a reader must never throw for bad input).
@_spi(StoreImplementation) public enum ReadOutcome: CustomStringConvertible {
    /// The bytes decoded.
    case decoded(StoreImage)
    /// `StoreError.corruptStore`, or `StoreError.invalidStoredValue` (a value its attribute
    /// cannot hold): the file, the byte offset or line when the error names one, the reason.
    case corrupt(file: String, offset: Int?, line: Int?, reason: String)
    /// `StoreError.incompatibleModel`: the file holds entities the model lacks.
    case modelMismatch(file: String, entities: [String])
    /// Any other error.
    case otherError(any Error)

    /// The outcome of `body`.
    public init(_ body: () throws -> StoreImage) {
        do {
            self = .decoded(try body())
        } catch let StoreError.corruptStore(file, offset, reason) {
            self = .corrupt(file: file, offset: offset, line: Self.number(after: "line ", in: reason), reason: reason)
        } catch let StoreError.invalidStoredValue(problem) {
            let position = problem.position ?? ""
            self = .corrupt(file: problem.file, offset: Self.number(after: "at offset ", in: position),
                            line: Self.number(after: "line ", in: position), reason: problem.description)
        } catch let StoreError.incompatibleModel(file, entities) {
            self = .modelMismatch(file: file, entities: entities)
        } catch {
            self = .otherError(error)
        }
    }

    /// What is wrong with an outcome that should be a refusal naming the file `expected` and a
    /// place in it (a line, or an offset within its `fileSize` bytes); nil when it is as it
    /// should be. A model mismatch names no place; it is a right refusal only where
    /// `allowsModelMismatch` (the XML store refuses an unknown entity so, the binary store as
    /// a corrupt file).
    public func refusalProblem(file expected: String, fileSize: Int, allowsModelMismatch: Bool) -> String? {
        switch self {
        case .decoded: return "decoded without an error"
        case .otherError(let error): return "threw \(error), not a StoreError naming the file"
        case let .modelMismatch(file, entities):
            if !allowsModelMismatch { return "threw incompatibleModel (\(entities)), not corruptStore" }
            return file == expected ? nil : "named the file \(file)"
        case let .corrupt(file, offset, line, reason):
            if file != expected { return "named the file \(file)" }
            if offset == nil, line == nil { return "names no line or offset: \(reason)" }
            if let offset, !(0...fileSize).contains(offset) { return "offset \(offset) outside the \(fileSize)-byte file" }
            return nil
        }
    }

    public var description: String {
        switch self {
        case .decoded(let image): "decoded \(image.objects.count) objects"
        case let .corrupt(file, offset, line, reason):
            "corrupt \(file) offset \(offset.map(String.init) ?? "-") line \(line.map(String.init) ?? "-"): \(reason)"
        case let .modelMismatch(file, entities): "model mismatch \(file): \(entities)"
        case .otherError(let error): "error \(error)"
        }
    }

    /// The decimal number right after `prefix` at the start of `text`.
    private static func number(after prefix: String, in text: String) -> Int? {
        guard text.hasPrefix(prefix) else { return nil }
        return Int(text.dropFirst(prefix.count).prefix { $0.isNumber })
    }
}
