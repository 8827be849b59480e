import BenchmarkSupport
import Foundation
import Strata

/// The SQLite benchmark's data: `authors` authors and `books` books, every book pointing at its
/// author (a to-one whose inverse is the author's to-many, cascade on delete).
///
/// Six attribute types on each entity: String, Integer 32, Double, Boolean, Date, Binary.
/// `Book.category` (0–9) is indexed; `Author.cohort` is `index % 10`. Values are generated from
/// the index alone, so every engine stores exactly the same rows.
struct Workload: PseudoRandomValues {
    let authors: Int
    let books: Int

    /// The ordinary workload: `count` objects, a tenth of them authors (nine books each).
    init(count: Int) {
        precondition(count >= 20, "the workload needs at least 20 objects")
        authors = count / 10
        books = count - count / 10
    }

    /// The iteration workload: `books` books, ten to an author.
    init(iterationBooks books: Int) {
        precondition(books >= 10, "the iteration needs at least 10 books")
        self.books = books
        authors = books / 10
    }

    var count: Int { authors + books }

    // MARK: What the phases select

    /// The indexed fetch: `category == 7`, sorted by `score`.
    static let fetchedCategory: Int32 = 7
    /// The update: books with `category == 3` and authors with `cohort == 3` (10 % of each).
    static let updatedCategory: Int32 = 3
    static let updatedCohort: Int32 = 3
    /// The delete: authors with `cohort == 4` (10 %), whose books go with them (cascade).
    static let deletedCohort: Int32 = 4
    /// The grouping: categories of more than this many available books (about half of them).
    var groupThreshold: Int { books / 20 }
    /// The grouping: how many groups are kept.
    static let groupLimit = 5
    /// The grouping in SQL, for the engines that write it.
    var groupSQL: String {
        "SELECT category, count(*) AS n, min(score) FROM book WHERE available = 1 GROUP BY category "
            + "HAVING count(*) > \(groupThreshold) ORDER BY n DESC, category LIMIT \(Self.groupLimit)"
    }

    // MARK: The model (Strata)

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Author") {
                Attribute("name", .string)
                Attribute("cohort", .integer32)
                Attribute("rating", .double)
                Attribute("verified", .boolean)
                Attribute("born", .date)
                Attribute("avatar", .binaryData)
                Relationship("books", toMany: "Book", inverse: "author", deleteRule: .cascade)
            }
            EntityDescription("Book") {
                Attribute("title", .string)
                Attribute("category", .integer32, indexed: true)
                Attribute("score", .double)
                Attribute("available", .boolean)
                Attribute("published", .date)
                Attribute("cover", .binaryData)
                Relationship("author", to: "Author", inverse: "books")
            }
        }
    }

    // MARK: Deterministic values

    /// SplitMix64: a well-mixed 64-bit value for each (entity, index, field).

    /// The author of book `b` (zero-based indexes; keys are index + 1): books in runs of
    /// `books / authors`.
    func authorIndex(ofBook b: Int) -> Int { Int(Int64(b) * Int64(authors) / Int64(books)) }

    /// The first book of author `a` (the books of authors `a..<a'` are `firstBook(a)..<firstBook(a')`).
    func firstBook(ofAuthor a: Int) -> Int { Int((Int64(a) * Int64(books) + Int64(authors) - 1) / Int64(authors)) }

    func author(_ a: Int) -> AuthorRow {
        AuthorRow(
            id: Int64(a + 1),
            name: "Author \(a + 1) " + Self.phrase(1, a, words: 2),
            cohort: Int32(a % 10),
            rating: Self.unit(1, a, 1) * 5,
            verified: Self.bits(1, a, 2) & 1 == 0,
            born: Date(timeIntervalSinceReferenceDate: -1_500_000_000 + Self.unit(1, a, 3) * 1_000_000_000),
            avatar: Self.bytes(1, a, count: 16))
    }

    func book(_ b: Int) -> BookRow {
        BookRow(
            id: Int64(b + 1),
            title: "Book \(b + 1): " + Self.phrase(2, b, words: 3),
            category: Int32(Self.bits(2, b, 1) % 10),
            score: Self.unit(2, b, 2) * 100,
            available: Self.bits(2, b, 3) % 4 != 0,
            published: Date(timeIntervalSinceReferenceDate: Self.baseDate - Self.unit(2, b, 4) * 900_000_000),
            cover: Self.bytes(2, b, count: 32),
            authorId: Int64(authorIndex(ofBook: b) + 1))
    }

    func authorRows() -> [AuthorRow] { (0..<authors).map(author) }
    func bookRows() -> [BookRow] { (0..<books).map(book) }
}

/// An author row, as every engine writes and reads it (GRDB's records are these structs).
struct AuthorRow: Codable, Equatable {
    var id: Int64
    var name: String
    var cohort: Int32
    var rating: Double
    var verified: Bool
    var born: Date
    var avatar: Data
}

/// A book row; `authorId` is the author's key (the to-one).
struct BookRow: Codable, Equatable {
    var id: Int64
    var title: String
    var category: Int32
    var score: Double
    var available: Bool
    var published: Date
    var cover: Data
    var authorId: Int64?
}

/// What an update does to a row, the same in every engine.
extension AuthorRow {
    mutating func applyUpdate() {
        rating += 0.5
        verified.toggle()
    }
}

extension BookRow {
    mutating func applyUpdate() {
        score += 1
        title += " (2nd ed.)"
    }
}

// MARK: Checksums

/// A digest of the values read, so that every engine can be checked to read the same rows.
/// `add` is order-independent (a sum of row digests); `append` depends on order.
struct Checksum: Equatable {
    private(set) var value: UInt64 = 0
    private(set) var rows = 0

    static func digest(_ fields: UInt64...) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for field in fields { h = (h ^ field) &* 0x0000_0100_0000_01B3 }
        return h
    }

    static func fields(of data: Data) -> UInt64 {
        UInt64(data.count) << 8 | UInt64(data.first ?? 0)
    }

    /// The digest of one author's values.
    static func author(id: Int64, name: String, cohort: Int32, rating: Double, verified: Bool, born: Date, avatar: Data) -> UInt64 {
        digest(UInt64(bitPattern: id), UInt64(name.utf8.count), UInt64(bitPattern: Int64(cohort)), rating.bitPattern,
               verified ? 1 : 2, born.timeIntervalSinceReferenceDate.bitPattern, fields(of: avatar))
    }

    /// The digest of one book's values and its author's key.
    static func book(id: Int64, title: String, category: Int32, score: Double, available: Bool, published: Date,
                     cover: Data, authorId: Int64?) -> UInt64 {
        digest(UInt64(bitPattern: id), UInt64(title.utf8.count), UInt64(bitPattern: Int64(category)), score.bitPattern,
               available ? 1 : 2, published.timeIntervalSinceReferenceDate.bitPattern, fields(of: cover),
               UInt64(bitPattern: authorId ?? -1))
    }

    static func of(_ row: AuthorRow) -> UInt64 {
        author(id: row.id, name: row.name, cohort: row.cohort, rating: row.rating, verified: row.verified, born: row.born, avatar: row.avatar)
    }

    static func of(_ row: BookRow) -> UInt64 {
        book(id: row.id, title: row.title, category: row.category, score: row.score, available: row.available,
             published: row.published, cover: row.cover, authorId: row.authorId)
    }

    /// The digest of one group of the grouping phase.
    static func group(category: Int64, count: Int64, lowestScore: Double) -> UInt64 {
        digest(UInt64(bitPattern: category), UInt64(bitPattern: count), lowestScore.bitPattern)
    }

    mutating func add(_ digest: UInt64) {
        value &+= digest
        rows += 1
    }

    mutating func append(_ digest: UInt64) {
        value = value &* 31 &+ digest
        rows += 1
    }
}
