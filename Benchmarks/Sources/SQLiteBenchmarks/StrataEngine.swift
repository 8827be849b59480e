import BenchmarkSupport
import Foundation
import Strata
import SQLiteBenchmarkSupport

/// The workload as an app writes it with Strata: a `PersistentStoreCoordinator` with one SQLite
/// store, a `ManagedObjectContext`, objects made with `insertNewObject` and `setValue(_:forKey:)`
/// (with typed values), attributes and the to-one read with `value(forKey:as:)`, fetched with `FetchRequest`s, deleted with `delete(_:)` (the model's cascade
/// rule does the rest), and one `save()` per write phase.
enum StrataEngine {
    static func key(_ object: ManagedObject) throws -> Int64 {
        guard let key = object.objectID.primaryKey else { throw BenchmarkError("\(object.objectID) has no primary key") }
        return key
    }

    static func authorDigest(_ object: ManagedObject) throws -> UInt64 {
        Checksum.author(id: try key(object), name: try StrataSQLite.read(object, "name"), cohort: try StrataSQLite.read(object, "cohort"),
                        rating: try StrataSQLite.read(object, "rating"), verified: try StrataSQLite.read(object, "verified"),
                        born: try StrataSQLite.read(object, "born"), avatar: try StrataSQLite.read(object, "avatar"))
    }

    static func bookDigest(_ object: ManagedObject, withAuthor: Bool = true) throws -> UInt64 {
        let author = withAuthor ? try object.value(forKey: "author", as: ManagedObject.self).map(key) : nil
        return Checksum.book(id: try key(object), title: try StrataSQLite.read(object, "title"), category: try StrataSQLite.read(object, "category"),
                             score: try StrataSQLite.read(object, "score"), available: try StrataSQLite.read(object, "available"),
                             published: try StrataSQLite.read(object, "published"), cover: try StrataSQLite.read(object, "cover"), authorId: author)
    }

    /// Inserts `authors` and `books` (whose authors are among `authors`) into `context`.
    static func insert(_ context: ManagedObjectContext, authors: ArraySlice<AuthorRow>, books: ArraySlice<BookRow>) throws {
        var authorObjects: [ManagedObject] = []
        authorObjects.reserveCapacity(authors.count)
        let firstAuthor = authors.first?.id ?? 1
        for row in authors {
            let object = try context.insertNewObject(forEntityName: "Author")
            try object.setValue(row.name, forKey: "name")
            try object.setValue(row.cohort, forKey: "cohort")
            try object.setValue(row.rating, forKey: "rating")
            try object.setValue(row.verified, forKey: "verified")
            try object.setValue(row.born, forKey: "born")
            try object.setValue(row.avatar, forKey: "avatar")
            authorObjects.append(object)
        }
        for row in books {
            let object = try context.insertNewObject(forEntityName: "Book")
            try object.setValue(row.title, forKey: "title")
            try object.setValue(row.category, forKey: "category")
            try object.setValue(row.score, forKey: "score")
            try object.setValue(row.available, forKey: "available")
            try object.setValue(row.published, forKey: "published")
            try object.setValue(row.cover, forKey: "cover")
            if let author = row.authorId {
                try object.setValue(authorObjects[Int(author - firstAuthor)], forKey: "author")
            }
        }
    }

    static func objectCount(_ coordinator: PersistentStoreCoordinator) throws -> Int {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.count(for: FetchRequest(entityName: "Author")) + context.count(for: FetchRequest(entityName: "Book"))
    }

    static func run(_ phase: Phase, workload: Workload, file: URL) throws -> PhaseResult {
        let model = try Workload.model()
        switch phase {
        case .insert:
            try? FileManager.default.removeItem(at: file)
            let authors = workload.authorRows()
            let books = workload.bookRows()
            let coordinator = try StrataSQLite.open(file, model: model)
            let context = ManagedObjectContext(coordinator: coordinator)
            var saveSeconds = 0.0
            let ((), seconds) = try timed {
                try insert(context, authors: authors[...], books: books[...])
                ((), saveSeconds) = try timed { try context.save() }
            }
            return PhaseResult(seconds: seconds, objects: authors.count + books.count, partSeconds: saveSeconds)

        case .iterateSetup:
            // A context per 10,000 authors and their books, each saved once and let go: the whole
            // file through one context would hold every object at once.
            try? FileManager.default.removeItem(at: file)
            let coordinator = try StrataSQLite.open(file, model: model)
            let ((), seconds) = try timed {
                var start = 0
                while start < workload.authors {
                    let end = min(start + 10_000, workload.authors)
                    let authors = (start..<end).map(workload.author)
                    let books = (workload.firstBook(ofAuthor: start)..<workload.firstBook(ofAuthor: end)).map(workload.book)
                    let context = ManagedObjectContext(coordinator: coordinator)
                    try insert(context, authors: authors[...], books: books[...])
                    try context.save()
                    start = end
                }
            }
            return PhaseResult(seconds: seconds, objects: try objectCount(coordinator))

        case .fetchAll:
            let coordinator = try StrataSQLite.open(file, model: model)
            return try fastest(phase.repetitions) {
                let context = ManagedObjectContext(coordinator: coordinator)
                var sum = Checksum()
                for object in try context.fetch(FetchRequest(entityName: "Author")) { sum.add(try authorDigest(object)) }
                for object in try context.fetch(FetchRequest(entityName: "Book")) { sum.add(try bookDigest(object)) }
                return (sum.rows, sum.value)
            }

        case .fetchIndexed:
            let coordinator = try StrataSQLite.open(file, model: model)
            return try fastest(phase.repetitions) {
                let context = ManagedObjectContext(coordinator: coordinator)
                let request = FetchRequest(
                    entityName: "Book", predicate: try ObjectPredicate(format: "category == %d", Int(Workload.fetchedCategory)),
                    sortDescriptors: [ObjectSortDescriptor(key: "score")])
                var sum = Checksum()
                for object in try context.fetch(request) { sum.append(try bookDigest(object)) }
                return (sum.rows, sum.value)
            }

        case .update:
            let coordinator = try StrataSQLite.open(file, model: model)
            let context = ManagedObjectContext(coordinator: coordinator)
            let (changed, seconds) = try timed {
                let books = try context.fetch(FetchRequest(
                    entityName: "Book", predicate: try ObjectPredicate(format: "category == %d", Int(Workload.updatedCategory))))
                for book in books {
                    try book.setValue(try StrataSQLite.read(book, "score", as: Double.self) + 1, forKey: "score")
                    try book.setValue(try StrataSQLite.read(book, "title", as: String.self) + " (2nd ed.)", forKey: "title")
                }
                let authors = try context.fetch(FetchRequest(
                    entityName: "Author", predicate: try ObjectPredicate(format: "cohort == %d", Int(Workload.updatedCohort))))
                for author in authors {
                    try author.setValue(try StrataSQLite.read(author, "rating", as: Double.self) + 0.5, forKey: "rating")
                    try author.setValue(!(try StrataSQLite.read(author, "verified", as: Bool.self)), forKey: "verified")
                }
                let changed = context.updatedObjects.count
                try context.save()
                return changed
            }
            return PhaseResult(seconds: seconds, objects: changed)

        case .delete:
            let coordinator = try StrataSQLite.open(file, model: model)
            let before = try objectCount(coordinator)
            let context = ManagedObjectContext(coordinator: coordinator)
            let (deleted, seconds) = try timed {
                let authors = try context.fetch(FetchRequest(
                    entityName: "Author", predicate: try ObjectPredicate(format: "cohort == %d", Int(Workload.deletedCohort))))
                for author in authors { try context.delete(author) }
                let deleted = context.deletedObjects.count
                try context.save()
                return deleted
            }
            let after = try objectCount(coordinator)
            guard before - after == deleted else {
                throw BenchmarkError("the context deleted \(deleted) objects, the store lost \(before - after)")
            }
            return PhaseResult(seconds: seconds, objects: deleted)

        case .count, .countWhere:
            let coordinator = try StrataSQLite.open(file, model: model)
            return try fastest(phase.repetitions) {
                let context = ManagedObjectContext(coordinator: coordinator)
                let total = phase == .count
                    ? try context.count(for: FetchRequest(entityName: "Author")) + context.count(for: FetchRequest(entityName: "Book"))
                    : try context.count(for: FetchRequest(
                        entityName: "Book", predicate: try ObjectPredicate(format: "category == %d", Int(Workload.fetchedCategory))))
                return (total, UInt64(total))
            }

        case .group:
            let coordinator = try StrataSQLite.open(file, model: model)
            var request = FetchRequest(entityName: "Book", predicate: try ObjectPredicate(format: "available == YES"))
            request.propertiesToFetch = [
                "category",
                .expression(ExpressionDescription(name: "n", expression: .count(), resultType: .integer64)),
                .expression(ExpressionDescription(name: "low", expression: .min("score"), resultType: .double)),
            ]
            request.propertiesToGroupBy = ["category"]
            request.havingPredicate = try ObjectPredicate(format: "n > %d", workload.groupThreshold)
            request.sortDescriptors = [ObjectSortDescriptor(key: "n", ascending: false), ObjectSortDescriptor(key: "category")]
            request.fetchLimit = Workload.groupLimit
            return try fastest(phase.repetitions) {
                let context = ManagedObjectContext(coordinator: coordinator)
                var sum = Checksum()
                for group in try context.fetchDictionaries(request) {
                    guard let category = group["category"] as? Int32, let count = group["n"] as? Int64,
                          let low = group["low"] as? Double else { throw BenchmarkError("a group without its values: \(group)") }
                    sum.append(Checksum.group(category: Int64(category), count: count, lowestScore: low))
                }
                return (sum.rows, sum.value)
            }

        case .iterate:
            // Every book, 500 at a time: each batch is read, then turned back into faults, so
            // the values of one batch at most are held at once.
            let coordinator = try StrataSQLite.open(file, model: model)
            let context = ManagedObjectContext(coordinator: coordinator)
            var request = FetchRequest(entityName: "Book")
            request.fetchBatchSize = 500
            var afterFetch = 0
            let ((rows, checksum), seconds) = try timed {
                let books = try context.fetchBatched(request)
                afterFetch = PhaseResult.residentKiB()
                var sum = Checksum()
                var start = books.startIndex
                while start < books.endIndex {
                    let end = min(start + request.fetchBatchSize, books.endIndex)
                    for index in start..<end { sum.add(try bookDigest(books[index], withAuthor: false)) }
                    for index in start..<end { try context.refresh(books[index], mergeChanges: false) }
                    start = end
                }
                return (sum.rows, sum.value)
            }
            return PhaseResult(seconds: seconds, objects: rows, checksum: checksum, markKiB: afterFetch)
        }
    }
}
