import Foundation
import Library
import Strata
import Testing

/// The lending rules, tested on the in-memory store: no file, no clean-up, the same behaviour
/// as the SQLite store the app uses (the last test runs one case on both to show it).
@Suite("Lending service")
struct LendingServiceTests {
    @Test("A member borrows books up to the limit; a lent book cannot be lent again")
    func lendingRules() throws {
        let service = try LendingService(storeType: .inMemory, limit: 2)
        let ann = try service.addMember("Ann")
        let bob = try service.addMember("Bob")
        let books = try ["Emma", "Dune", "Kim"].map { try service.addBook($0) }
        try service.lend(books[0], to: ann)
        try service.lend(books[1], to: ann)
        #expect(throws: LendingError.limitReached(member: "Ann", limit: 2)) { try service.lend(books[2], to: ann) }
        #expect(throws: LendingError.alreadyLent(title: "Emma")) { try service.lend(books[0], to: bob) }
        #expect(try service.titles(heldBy: ann) == ["Dune", "Emma"])
    }

    @Test("A book given back can be lent to someone else")
    func givingBack() throws {
        let service = try LendingService(storeType: .inMemory)
        let ann = try service.addMember("Ann")
        let bob = try service.addMember("Bob")
        let emma = try service.addBook("Emma")
        try service.lend(emma, to: ann)
        try service.giveBack(emma)
        try service.lend(emma, to: bob)
        #expect(try service.titles(heldBy: ann).isEmpty)
        #expect(try service.titles(heldBy: bob) == ["Emma"])
    }

    @Test("The in-memory store and an SQLite file answer alike", arguments: ["in-memory", "sqlite"])
    func sameOnBothStores(kind: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("lending-\(UUID().uuidString).sqlite")
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) } }
        let service = kind == "sqlite" ? try LendingService(storeType: .sqlite, at: file, limit: 1)
                                       : try LendingService(storeType: .inMemory, limit: 1)
        let ann = try service.addMember("Ann")
        let books = try ["Emma", "Dune"].map { try service.addBook($0) }
        try service.lend(books[1], to: ann)
        #expect(throws: LendingError.limitReached(member: "Ann", limit: 1)) { try service.lend(books[0], to: ann) }
        #expect(try service.titles(heldBy: ann) == ["Dune"])
    }
}
