import Foundation
import Strata
import StrataTestSupport
import Testing

/// Random changes, saved now and then, undone all and redone all: the context (and, once saved,
/// the store) ends where it started, then where the changes left it.
@Suite("Undo of random changes")
struct UndoRandomTests {
    /// What the context (or a store, through a fresh context) holds: each book by its `category`,
    /// with its title, score and shelf label; each shelf by its label, with its books' categories.
    private struct GraphState: Equatable, CustomStringConvertible {
        var books: [Int32: String] = [:]
        var shelves: [String: [Int32]] = [:]

        init(_ context: ManagedObjectContext) throws {
            for book in try context.fetch(FetchRequest(entityName: "Book")) {
                let category = try #require(book.value(forKey: "category") as? Int32)
                let shelf = try (book.value(forKey: "shelf") as? ManagedObject).map { try $0.string("label") } ?? "-"
                let score = try book.value(forKey: "score") as? Double
                books[category] = "\(try book.string("title"))|\(score.map { "\($0)" } ?? "-")|\(shelf)"
            }
            for shelf in try context.fetch(FetchRequest(entityName: "Shelf")) {
                let categories = try shelf.objects("books").map { try #require($0.value(forKey: "category") as? Int32) }
                shelves[try shelf.string("label")] = categories.sorted()
            }
        }

        var description: String { "books \(books.sorted { $0.key < $1.key }), shelves \(shelves.sorted { $0.key < $1.key })" }
    }

    /// Applies one random change to the live objects of `context`.
    private func randomChange(_ context: ManagedObjectContext, _ random: inout SplitMix64,
                              next: inout Int32) throws {
        let books = try context.fetch(FetchRequest(entityName: "Book"))
        let shelves = try context.fetch(FetchRequest(entityName: "Shelf"))
        switch Int.random(in: 0..<9, using: &random) {
        case 0:
            next += 1
            try context.insert("Book", ["category": next, "title": "b\(next)",
                                        "shelf": shelves.randomElement(using: &random)])
        case 1:
            next += 1
            try context.insert("Shelf", ["label": "s\(next)"])
        case 2, 3:
            guard let book = books.randomElement(using: &random) else { return }
            try book.setValue("t\(Int.random(in: 0..<100, using: &random))", forKey: "title")
        case 4:
            guard let book = books.randomElement(using: &random) else { return }
            try book.setValue(Bool.random(using: &random) ? nil : Double(Int.random(in: 0..<9, using: &random)), forKey: "score")
        case 5:
            guard let book = books.randomElement(using: &random) else { return }
            try book.setValue(shelves.randomElement(using: &random), forKey: "shelf")
        case 6:
            guard let shelf = shelves.randomElement(using: &random), let book = books.randomElement(using: &random) else { return }
            if Bool.random(using: &random) { try shelf.add(book, to: "books") } else { try shelf.remove(book, from: "books") }
        case 7:
            guard let book = books.randomElement(using: &random) else { return }
            try context.delete(book)
        default:
            guard let shelf = shelves.randomElement(using: &random) else { return }
            try context.delete(shelf)
        }
    }

    @Test("Undoing every random change restores the start; redoing all restores the end",
          arguments: StoreUnderTest.all, [UInt64(1), 7, 42, 2026])
    func undoAllRedoAll(store: StoreUnderTest, seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let context = try store.makeContext(model: SampleModels.shelves())
        let manager = ObjectUndoManager()
        var next: Int32 = 0
        for label in ["s-a", "s-b"] {
            let shelf = try context.insert("Shelf", ["label": label])
            for _ in 0..<2 {
                next += 1
                try context.insert("Book", ["category": next, "title": "b\(next)", "shelf": shelf])
            }
        }
        try context.save()
        context.undoManager = manager
        let start = try GraphState(context)

        for _ in 0..<25 {
            for _ in 0..<Int.random(in: 1...3, using: &random) { try randomChange(context, &random, next: &next) }
            context.processPendingChanges()
            if Int.random(in: 0..<4, using: &random) == 0 { try context.save() }
        }
        let end = try GraphState(context)
        #expect(end != start, "seed \(seed): the changes changed something")

        while manager.canUndo { try context.undo() }
        #expect(try GraphState(context) == start, "seed \(seed)")
        try context.save()
        #expect(try GraphState(context.freshContext()) == start, "seed \(seed), stored")

        while manager.canRedo { try context.redo() }
        #expect(try GraphState(context) == end, "seed \(seed)")
        try context.save()
        #expect(try GraphState(context.freshContext()) == end, "seed \(seed), stored")
    }
}
