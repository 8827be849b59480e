import BenchmarkSupport
import Foundation
import Strata
@_spi(StoreImplementation) import StrataBinary
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataXML

/// The benchmark's object graph: `count` objects of four entities, split as
/// 0.1 % `Tag`, 1 % `Author`, 10 % `Book` and the rest `Chapter`.
///
/// Every attribute type of the brief appears (Integer 16/32/64, Decimal, Double, Float, String,
/// Boolean, Date, Binary, UUID, URI, an optional Transformable), and every relationship kind:
/// to-one (`Book.author`, `Chapter.book`), to-many (`Author.books`), many-to-many
/// (`Book.tags` ⇄ `Tag.books`) and ordered to-many (`Book.chapters`).
///
/// Values are generated from the object's index alone, so the store image, the Codable structs
/// and the objects inserted into a context hold exactly the same data.
struct Dataset: PseudoRandomValues {
    let tags: Int
    let authors: Int
    let books: Int
    let chapters: Int
    static let storeIdentifier = "0B6C7D0E-5A4B-4C3D-8E2F-1A2B3C4D5E6F"

    init(count: Int) {
        precondition(count >= 20, "the graph needs at least 20 objects")
        tags = max(3, count / 1000)
        authors = max(1, count / 100)
        books = max(1, count / 10)
        chapters = count - tags - authors - books
    }

    var count: Int { tags + authors + books + chapters }

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Author") {
                Attribute("name", .string)
                Attribute("born", .date)
                Attribute("identifier", .uuid)
                Attribute("homepage", .uri)
                Attribute("royalties", .decimal)
                Relationship("books", toMany: "Book", inverse: "author")
            }
            EntityDescription("Book") {
                Attribute("title", .string)
                Attribute("isbn", .integer64)
                Attribute("edition", .integer16)
                Attribute("pages", .integer32)
                Attribute("price", .decimal)
                Attribute("weight", .float)
                Attribute("rating", .double)
                Attribute("inPrint", .boolean)
                Attribute("published", .date)
                Attribute("cover", .binaryData)
                Attribute("link", .uri)
                Attribute("extra", .transformable)
                Relationship("author", to: "Author", inverse: "books")
                Relationship("chapters", toMany: "Chapter", inverse: "book", ordered: true)
                Relationship("tags", toMany: "Tag", inverse: "books")
            }
            EntityDescription("Chapter") {
                Attribute("number", .integer16)
                Attribute("words", .integer32)
                Attribute("checksum", .integer64)
                Attribute("title", .string)
                Attribute("readingTime", .double)
                Attribute("score", .float)
                Attribute("draft", .boolean)
                Attribute("edited", .date)
                Attribute("identifier", .uuid)
                Relationship("book", to: "Book", inverse: "chapters")
            }
            EntityDescription("Tag") {
                Attribute("name", .string)
                Relationship("books", toMany: "Book", inverse: "tags")
            }
        }
    }

    // MARK: Deterministic values

    /// SplitMix64 of `seed`: a well-mixed 64-bit value for each (entity, index, field).

    // MARK: Records (the Codable form; also the source of the snapshots)

    struct TagRecord: Codable, Equatable {
        var pk: Int64
        var name: String
        var books: [Int64]
    }

    struct AuthorRecord: Codable, Equatable {
        var pk: Int64
        var name: String
        var born: Date
        var identifier: UUID
        var homepage: URL
        var royalties: Decimal
        var books: [Int64]
    }

    struct BookRecord: Codable, Equatable {
        var pk: Int64
        var title: String
        var isbn: Int64
        var edition: Int16
        var pages: Int32
        var price: Decimal
        var weight: Float
        var rating: Double
        var inPrint: Bool
        var published: Date
        var cover: Data
        var link: URL
        var extra: Data?
        var author: Int64?
        var chapters: [Int64]
        var tags: [Int64]
    }

    struct ChapterRecord: Codable, Equatable {
        var pk: Int64
        var number: Int16
        var words: Int32
        var checksum: Int64
        var title: String
        var readingTime: Double
        var score: Float
        var draft: Bool
        var edited: Date
        var identifier: UUID
        var book: Int64?
    }

    /// The whole graph as one Codable value, as an app would archive it with Foundation.
    struct Library: Codable {
        var storeIdentifier: String
        var tags: [TagRecord]
        var authors: [AuthorRecord]
        var books: [BookRecord]
        var chapters: [ChapterRecord]

        var objectCount: Int { tags.count + authors.count + books.count + chapters.count }
    }

    // Relationships, by zero-based index; keys are index + 1.

    func tagIndexes(ofBook b: Int) -> [Int] { (0..<3).map { (b &* 7 + $0) % tags } }

    func tag(_ t: Int, books tagBooks: [Int]) -> TagRecord {
        TagRecord(pk: Int64(t + 1), name: "tag-\(t) " + Self.phrase(1, t, words: 1), books: tagBooks.map { Int64($0 + 1) })
    }

    func author(_ a: Int) -> AuthorRecord {
        AuthorRecord(
            pk: Int64(a + 1),
            name: Self.phrase(2, a, words: 2).capitalized,
            born: Date(timeIntervalSinceReferenceDate: -1_500_000_000 + Self.unit(2, a, 1) * 1_000_000_000),
            identifier: Self.uuid(2, a),
            homepage: URL(string: "https://authors.example.com/\(a + 1)/\(Self.words[a % 16])")!,
            royalties: Decimal(Int(Self.bits(2, a, 2) % 10_000_000)) / 100,
            books: stride(from: a, to: books, by: authors).map { Int64($0 + 1) })
    }

    func book(_ b: Int) -> BookRecord {
        BookRecord(
            pk: Int64(b + 1),
            title: Self.phrase(3, b, words: 3).capitalized,
            isbn: 978_000_000_0000 + Int64(Self.bits(3, b, 1) % 1_000_000_0000),
            edition: Int16(1 + Self.bits(3, b, 2) % 9),
            pages: Int32(50 + Self.bits(3, b, 3) % 1200),
            price: Decimal(Int(499 + Self.bits(3, b, 4) % 9500)) / 100,
            weight: Float(Self.unit(3, b, 5) * 2),
            rating: Self.unit(3, b, 6) * 5,
            inPrint: Self.bits(3, b, 7) & 1 == 0,
            published: Date(timeIntervalSinceReferenceDate: Self.baseDate - Self.unit(3, b, 8) * 900_000_000),
            cover: Self.bytes(3, b, count: 32),
            link: URL(string: "https://books.example.com/isbn/\(b + 1)?edition=\(1 + Self.bits(3, b, 2) % 9)")!,
            extra: b % 4 == 0 ? Self.bytes(4, b, count: 24) : nil,
            author: Int64(b % authors + 1),
            chapters: stride(from: b, to: chapters, by: books).map { Int64($0 + 1) },
            tags: tagIndexes(ofBook: b).map { Int64($0 + 1) })
    }

    func chapter(_ c: Int) -> ChapterRecord {
        ChapterRecord(
            pk: Int64(c + 1),
            number: Int16(c / books + 1),
            words: Int32(500 + Self.bits(5, c, 1) % 20_000),
            checksum: Int64(bitPattern: Self.bits(5, c, 2)),
            title: "Chapter \(c / books + 1): " + Self.phrase(5, c, words: 2),
            readingTime: Self.unit(5, c, 3) * 90,
            score: Float(Self.unit(5, c, 4)),
            draft: Self.bits(5, c, 5) % 10 == 0,
            edited: Date(timeIntervalSinceReferenceDate: Self.baseDate + Self.unit(5, c, 6) * 150_000_000),
            identifier: Self.uuid(5, c),
            book: Int64(c % books + 1))
    }

    func library() -> Library {
        var tagBooks = [[Int]](repeating: [], count: tags)
        for b in 0..<books { for t in tagIndexes(ofBook: b) { tagBooks[t].append(b) } }
        return Library(
            storeIdentifier: Self.storeIdentifier,
            tags: (0..<tags).map { tag($0, books: tagBooks[$0]) },
            authors: (0..<authors).map(author),
            books: (0..<books).map(book),
            chapters: (0..<chapters).map(chapter))
    }

    // MARK: Store image

    /// The graph as the atomic stores hold it, built object by object (no record is kept).
    func image(type: StoreType, model: ManagedObjectModel) -> StoreImage {
        let store = Self.storeIdentifier
        func id(_ entity: String, _ pk: Int64) -> ManagedObjectID {
            ManagedObjectID(entityName: entity, storeIdentifier: store, primaryKey: pk)
        }
        var objects: [ManagedObjectID: ObjectSnapshot] = [:]
        objects.reserveCapacity(count)
        func add(_ snapshot: ObjectSnapshot) { objects[snapshot.objectID] = snapshot }

        var tagBooks = [[Int]](repeating: [], count: tags)
        for b in 0..<books { for t in tagIndexes(ofBook: b) { tagBooks[t].append(b) } }
        for t in 0..<tags {
            let r = tag(t, books: tagBooks[t])
            add(ObjectSnapshot(objectID: id("Tag", r.pk), attributes: ["name": .string(r.name)],
                               toMany: ["books": r.books.map { id("Book", $0) }]))
        }
        for a in 0..<authors {
            let r = author(a)
            add(ObjectSnapshot(
                objectID: id("Author", r.pk),
                attributes: ["name": .string(r.name), "born": .date(r.born), "identifier": .uuid(r.identifier),
                             "homepage": .uri(r.homepage), "royalties": .decimal(r.royalties)],
                toMany: ["books": r.books.map { id("Book", $0) }]))
        }
        for b in 0..<books {
            let r = book(b)
            var attributes: AttributeValues = [
                "title": .string(r.title), "isbn": .integer(r.isbn), "edition": .integer(Int64(r.edition)),
                "pages": .integer(Int64(r.pages)), "price": .decimal(r.price), "weight": .float(r.weight),
                "rating": .double(r.rating), "inPrint": .boolean(r.inPrint), "published": .date(r.published),
                "cover": .binary(r.cover), "link": .uri(r.link),
            ]
            if let extra = r.extra { attributes["extra"] = .binary(extra) }
            add(ObjectSnapshot(
                objectID: id("Book", r.pk), attributes: attributes,
                toOne: r.author.map { ["author": id("Author", $0)] } ?? [:],
                toMany: ["chapters": r.chapters.map { id("Chapter", $0) }, "tags": r.tags.map { id("Tag", $0) }]))
        }
        for c in 0..<chapters {
            let r = chapter(c)
            add(ObjectSnapshot(
                objectID: id("Chapter", r.pk),
                attributes: ["number": .integer(Int64(r.number)), "words": .integer(Int64(r.words)),
                             "checksum": .integer(r.checksum), "title": .string(r.title),
                             "readingTime": .double(r.readingTime), "score": .float(r.score),
                             "draft": .boolean(r.draft), "edited": .date(r.edited), "identifier": .uuid(r.identifier)],
                toOne: r.book.map { ["book": id("Book", $0)] } ?? [:]))
        }
        var image = StoreImage(identifier: store, objects: objects,
                               nextPrimaryKeys: ["Tag": Int64(tags + 1), "Author": Int64(authors + 1),
                                                 "Book": Int64(books + 1), "Chapter": Int64(chapters + 1)])
        image.stampMetadata(type: type, model: model)
        return image
    }

    // MARK: Through a context

    /// Inserts the whole graph into `context` with `setValue(_:forKey:)`, as an app would.
    func insert(into context: ManagedObjectContext) throws {
        var tagObjects: [ManagedObject] = []
        for t in 0..<tags {
            let r = tag(t, books: [])
            let object = try context.insertNewObject(forEntityName: "Tag")
            try object.setValue(r.name, forKey: "name")
            tagObjects.append(object)
        }
        var authorObjects: [ManagedObject] = []
        for a in 0..<authors {
            let r = author(a)
            let object = try context.insertNewObject(forEntityName: "Author")
            try object.setValue(r.name, forKey: "name")
            try object.setValue(r.born, forKey: "born")
            try object.setValue(r.identifier, forKey: "identifier")
            try object.setValue(r.homepage, forKey: "homepage")
            try object.setValue(r.royalties, forKey: "royalties")
            authorObjects.append(object)
        }
        var bookObjects: [ManagedObject] = []
        for b in 0..<books {
            let r = book(b)
            let object = try context.insertNewObject(forEntityName: "Book")
            try object.setValue(r.title, forKey: "title")
            try object.setValue(r.isbn, forKey: "isbn")
            try object.setValue(r.edition, forKey: "edition")
            try object.setValue(r.pages, forKey: "pages")
            try object.setValue(r.price, forKey: "price")
            try object.setValue(r.weight, forKey: "weight")
            try object.setValue(r.rating, forKey: "rating")
            try object.setValue(r.inPrint, forKey: "inPrint")
            try object.setValue(r.published, forKey: "published")
            try object.setValue(r.cover, forKey: "cover")
            try object.setValue(r.link, forKey: "link")
            if let extra = r.extra { try object.setValue(extra, forKey: "extra") }
            try object.setValue(authorObjects[b % authors], forKey: "author")
            try object.setValue(tagIndexes(ofBook: b).map { tagObjects[$0] }, forKey: "tags")
            bookObjects.append(object)
        }
        for c in 0..<chapters {
            let r = chapter(c)
            let object = try context.insertNewObject(forEntityName: "Chapter")
            try object.setValue(r.number, forKey: "number")
            try object.setValue(r.words, forKey: "words")
            try object.setValue(r.checksum, forKey: "checksum")
            try object.setValue(r.title, forKey: "title")
            try object.setValue(r.readingTime, forKey: "readingTime")
            try object.setValue(r.score, forKey: "score")
            try object.setValue(r.draft, forKey: "draft")
            try object.setValue(r.edited, forKey: "edited")
            try object.setValue(r.identifier, forKey: "identifier")
            // Appends the chapter to the book's ordered `chapters` (the inverse), in chapter order.
            try object.setValue(bookObjects[c % books], forKey: "book")
        }
    }
}
