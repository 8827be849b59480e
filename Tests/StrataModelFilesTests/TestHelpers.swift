import Foundation
import StrataCore
import StrataModelFiles

/// Reads `xml` as a `contents` file named `file`.
func readContents(_ xml: String, file: String = "test/contents") throws -> LoadedModel {
    try ModelFileReader().read(Data(xml.utf8), file: file)
}

/// A `contents` document around `body` (entities and other top-level elements).
func contentsDocument(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
    \(body)
    </model>
    """
}

/// A model that uses every feature the `contents` format can hold, with values that are hard to
/// carry through XML (quotes, ampersands, line breaks, combining characters, negative zero…).
enum EveryFeatureModel {
    static let tricky = "quote \" amp & lt < gt > apos ' tab \t newline \n return \r é e\u{301} 🦊 ]]> &amp;"

    static func make() throws -> ManagedObjectModel {
        var publication = EntityDescription(
            "Publication", isAbstract: true, managedObjectClassName: "Library.Publication",
            userInfo: ["note": tricky, "empty": ""], renamingIdentifier: "OldPublication",
            versionHashModifier: "v2", uniquenessConstraints: [["title", "year"], ["isbn"]],
            indexes: [
                FetchIndexDescription(name: "byTitle", elements: [
                    .init(property: "title"), .init(property: "year", ascending: false),
                ]),
            ])
        publication.declaredProperties = [
            .attribute(AttributeDescription(
                name: "title", type: .string, isOptional: false, isIndexed: true, defaultValue: .string(tricky),
                minimum: 1, maximum: 200, regularExpression: "[A-Z].*\\s\"x\"", userInfo: ["k": "v", "line": "a\nb"],
                renamingIdentifier: "name", versionHashModifier: "m")),
            .attribute(AttributeDescription(name: "emptyDefault", type: .string, defaultValue: .string(""))),
            .attribute(AttributeDescription(name: "isbn", type: .string, isOptional: false)),
            .attribute(AttributeDescription(
                name: "year", type: .integer16, defaultValue: .integer(-32768), minimum: -5, maximum: 3000)),
            .attribute(AttributeDescription(name: "pages", type: .integer32, defaultValue: .integer(Int64(Int32.max)))),
            .attribute(AttributeDescription(name: "serial", type: .integer64, defaultValue: .integer(Int64.min))),
            .attribute(AttributeDescription(
                name: "price", type: .decimal,
                defaultValue: Decimal(string: "12345.678901234567890123", locale: Locale(identifier: "en_US_POSIX")).map { .decimal($0) },
                minimum: 0.5, maximum: 1e20)),
            .attribute(AttributeDescription(
                name: "rating", type: .double, defaultValue: .double(-0.0), minimum: -1.5e-300, maximum: 0.1)),
            .attribute(AttributeDescription(name: "weight", type: .float, defaultValue: .float(1.1))),
            .attribute(AttributeDescription(name: "inPrint", type: .boolean, isOptional: false, defaultValue: .boolean(true))),
            .attribute(AttributeDescription(name: "withdrawn", type: .boolean, defaultValue: .boolean(false))),
            .attribute(AttributeDescription(
                name: "published", type: .date, defaultValue: .date(Date(timeIntervalSinceReferenceDate: 123_456.789)),
                minimum: -978_307_200, maximum: 1e9)),
            .attribute(AttributeDescription(
                name: "cover", type: .binaryData, minimum: 0, maximum: 1_000_000, allowsExternalBinaryDataStorage: true)),
            .attribute(AttributeDescription(
                name: "tags", type: .transformable, valueTransformerName: "NSSecureUnarchiveFromData",
                valueClassName: "[String]")),
            .attribute(AttributeDescription(
                name: "id", type: .uuid, isOptional: false,
                defaultValue: UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0").map { .uuid($0) },
                preservesValueInHistoryOnDeletion: true)),
            .attribute(AttributeDescription(
                name: "homepage", type: .uri, defaultValue: URL(string: "https://example.com/a?b=c&d=e#f").map { .uri($0) })),
            .attribute(AttributeDescription(name: "scratch", type: .objectID, isTransient: true)),
            .attribute(AttributeDescription(name: "draftNote", type: .string, isTransient: true, userInfo: [tricky: tricky])),
        ]
        var book = EntityDescription("Book", parent: "Publication", managedObjectClassName: "Library.Book")
        book.declaredProperties = [
            .relationship(RelationshipDescription(
                name: "authors", destination: "Author", inverse: "books", toMany: true, isOrdered: true,
                minCount: 1, maxCount: 5, deleteRule: .deny, isOptional: false, userInfo: ["ordered": "yes"],
                renamingIdentifier: "writers", versionHashModifier: "r1")),
            .relationship(RelationshipDescription(
                name: "publisher", destination: "Publisher", inverse: "books", minCount: 1, maxCount: 1,
                deleteRule: .nullify, isOptional: false)),
            .relationship(RelationshipDescription(name: "related", destination: "Publication", toMany: true, deleteRule: .noAction)),
            .relationship(RelationshipDescription(name: "sequel", destination: "Book", inverse: "prequel")),
            .relationship(RelationshipDescription(name: "prequel", destination: "Book", inverse: "sequel")),
        ]
        var magazine = EntityDescription("Magazine", parent: "Publication")
        magazine.declaredProperties = [
            .attribute(AttributeDescription(name: "issue", type: .integer32, isOptional: false)),
        ]
        var author = EntityDescription("Author", userInfo: ["a": "1", "b": "2"])
        author.declaredProperties = [
            .attribute(AttributeDescription(name: "name", type: .string, isOptional: false, userInfo: ["searchable": "YES"])),
            .relationship(RelationshipDescription(
                name: "books", destination: "Book", inverse: "authors", toMany: true, deleteRule: .cascade)),
            .attribute(AttributeDescription(name: "bookCount", type: .integer64, derivationExpression: "books.@count")),
            .relationship(RelationshipDescription(name: "mentor", destination: "Author")),
            .relationship(RelationshipDescription(name: "cache", destination: "Book", toMany: true, isTransient: true)),
            .fetchedProperty(FetchedPropertyDescription(
                name: "recentBooks", destination: "Book",
                predicateFormat: "year > 2000 AND ANY authors == $FETCH_SOURCE AND title CONTAINS[cd] \"<&>\"",
                userInfo: ["why": "fast"], renamingIdentifier: "newBooks")),
            .fetchedProperty(FetchedPropertyDescription(name: "allBooks", destination: "Book")),
        ]
        var publisher = EntityDescription("Publisher")
        publisher.declaredProperties = [
            .attribute(AttributeDescription(name: "name", type: .string)),
            .relationship(RelationshipDescription(
                name: "books", destination: "Book", inverse: "publisher", toMany: true, deleteRule: .cascade)),
        ]
        return try ManagedObjectModel(
            entities: [publication, book, magazine, author, publisher],
            configurations: ["Library": ["Book", "Author", "Publication"], "Empty": [], "Press": ["Publisher"]],
            fetchRequestTemplates: [
                "booksAfter": FetchRequestTemplate(
                    name: "booksAfter", entityName: "Book", predicateFormat: "year > $YEAR AND title BEGINSWITH \"A\\\"\""),
                "allAuthors": FetchRequestTemplate(name: "allAuthors", entityName: "Author"),
            ],
            versionIdentifiers: ["2.0 beta <&>"])
    }
}
