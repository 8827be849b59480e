import Foundation
import Strata

/// The refusal of a copy that would drop references to missing objects.
///
/// A store whose relationships name objects it does not hold (written by another program, or
/// damage) reads on, each such relationship as if the reference were not there. A copy of it
/// (`convert-store`, `export`) would write that absence as the data, so it is refused, each
/// reference listed, unless `--allow-loss`; with it each dropped reference is a warning.
enum DanglingReferenceGuard {
    /// How many references a refusal lists before it says how many more there are.
    static let listedLimit = 20

    /// Refuses to copy `opened` (named `store` in messages) when it holds dangling references,
    /// unless `allowLoss`.
    ///
    /// - Throws: ``CommandFailure`` listing the references, or naming the error that stopped
    ///   the store from finding them.
    static func check(_ opened: any PersistentStore, store: String, allowLoss: Bool) throws {
        guard let checking = opened as? any IntegrityCheckingStore else { return }
        let dangling: [DanglingReference]
        do {
            dangling = try checking.danglingReferences()
        } catch {
            throw CommandFailure(store, error)
        }
        guard !dangling.isEmpty else { return }
        if allowLoss {
            for reference in dangling { Diagnostics.warning("\(store): dropped: \(reference)") }
            return
        }
        var lines = ["\(store): \(dangling.count) dangling reference\(dangling.count == 1 ? "" : "s") would be written as missing (pass --allow-loss to drop \(dangling.count == 1 ? "it" : "them"); see 'strata check'):"]
        lines += dangling.prefix(listedLimit).map { "  \($0)" }
        if dangling.count > listedLimit { lines.append("  … and \(dangling.count - listedLimit) more") }
        throw CommandFailure(lines: lines)
    }
}
