import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
@testable @_spi(StoreImplementation) import StrataXML
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A guard against a hang, longer than a whole sanitizer run (docs/testing.md says why).
/// The XML store refuses hostile documents (entity expansion, external entities, remote DTDs,
/// broken encodings) with an error naming the file and the line, and reads dangling idrefs as
/// missing. What every atomic format refuses alike is in `AtomicFormatTests`.
@Suite("XML store: hostile files", .timeLimit(.minutes(30)))
struct XMLHostileFileTests {
    static let path = "/hostile/pets.xml"
    let model: ManagedObjectModel

    init() throws {
        model = try PetsModel.make()
    }

    private func decode(_ data: Data, file: String = Self.path) -> ReadOutcome {
        ReadOutcome { try XMLFixture.decode(data, file: file, model: model) }
    }

    /// What is wrong with an outcome that should be a typed error naming the file and a place
    /// (a line, or an offset); nil when it is as it should be.
    private func problem(_ outcome: ReadOutcome, size: Int) -> String? {
        outcome.refusalProblem(file: Self.path, fileSize: size, allowsModelMismatch: true)
    }

    @Test("a dangling idref reads as if it were not there and is reported")
    func danglingIdref() throws {
        var text = PetsModel.xmlDocument.replacingOccurrences(of: #"idrefs="z103 z104 z105""#, with: #"idrefs="z103 z999 z105""#)
        // Tom (z104) names a missing owner.
        let tomStart = try #require(text.range(of: ">Tom<"))
        let tomOwner = try #require(text.range(of: #"idrefs="z102""#, range: tomStart.upperBound..<text.endIndex))
        text.replaceSubrange(tomOwner, with: #"idrefs="z998""#)
        guard case .decoded(let image) = decode(Data(text.utf8)) else {
            Issue.record("a dangling idref stopped the reading")
            return
        }
        let expected = PetsModel.image()
        let ann = ManagedObjectID(entityName: "Person", storeIdentifier: expected.identifier, primaryKey: 1)
        let tom = ManagedObjectID(entityName: "Pet", storeIdentifier: expected.identifier, primaryKey: 2)
        #expect(image.objects.count == expected.objects.count, "every object is read")
        #expect(image.objects[ann]?.toMany["pets"] == expected.objects[ann]?.toMany["pets"]?.filter { $0 != tom })
        #expect(image.objects[tom]?.toOne["owner"] == nil, "the dangling to-one reads as nil")
        #expect(image.danglingReferences == [
            DanglingReference(source: ann, relationship: "pets", destinationEntityName: "Animal", destinationName: "z999"),
            DanglingReference(source: tom, relationship: "owner", destinationEntityName: "Person", destinationName: "z998"),
        ])
    }

    @Test("hostile documents are refused with an error naming the file and the line",
          arguments: HostileDocument.all)
    func hostile(_ document: HostileDocument) throws {
        #expect(document.data != Data(PetsModel.xmlDocument.utf8))
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = decode(document.data)
        let elapsed = clock.now - start
        if let problem = problem(outcome, size: document.data.count) { Issue.record("\(document.name): \(problem)") }
        #expect(elapsed < .seconds(5), "\(document.name) took \(elapsed)")
        if case let .corrupt(_, _, _, reason) = outcome {
            #expect(!reason.contains("root:"), "the error quotes an external file: \(reason)")
        }
    }

    @Test("a DOCTYPE whose SYSTEM id is an http URL is never fetched")
    func remoteDoctype() throws {
        let listener = try LoopbackListener()
        defer { listener.close() }
        let url = "http://127.0.0.1:\(listener.port)/CoreData.dtd"
        for doctype in [#"<!DOCTYPE database SYSTEM "\#(url)">"#, #"<!DOCTYPE database PUBLIC "-//X//DTD X//EN" "\#(url)">"#] {
            let text = PetsModel.xmlDocument.replacingOccurrences(
                of: #"<!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">"#, with: doctype)
            #expect(text.contains(url))
            let clock = ContinuousClock()
            let start = clock.now
            let outcome = decode(Data(text.utf8))
            #expect(clock.now - start < .seconds(5))
            switch outcome {
            case .decoded(let image): #expect(Identical.differences(PetsModel.image(), image).isEmpty)
            case let other: #expect(problem(other, size: text.utf8.count) == nil)
            }
            #expect(!listener.hasPendingConnection, "the reader connected to \(url)")
        }
    }

    @Test("an object with primary key Int64.max: decodes or errors, never traps")
    func largestPrimaryKey() throws {
        let text = PetsModel.xmlDocument.replacingOccurrences(of: #"id="z102" pk="1""#, with: #"id="z102" pk="9223372036854775807""#)
        switch decode(Data(text.utf8)) {
        case .decoded(let image): #expect(image.nextPrimaryKeys["Person"] == .max)
        case let other: #expect(problem(other, size: text.utf8.count) == nil)
        }
    }
}

/// A TCP socket listening on 127.0.0.1 that only records whether anyone connected.
final class LoopbackListener {
    private let descriptor: Int32
    let port: UInt16

    init() throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 4) == 0 else {
            closeSocket(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Whether a connection is waiting to be accepted.
    var hasPendingConnection: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 100) > 0
    }

    func close() {
        closeSocket(descriptor)
    }
}

private func closeSocket(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #else
    _ = Darwin.close(descriptor)
    #endif
}
