import Foundation
import Testing
import StrataCore
import StrataTestSupport

/// Entity version hashes: stable across builds, sensitive to exactly what Core Data hashes, and
/// equal to the bytes Apple's Core Data recorded in real stores.
@Suite("VersionHash")
struct VersionHashTests {
    // MARK: Helpers that mirror Xcode's model XML

    /// An `<attribute>` element.
    static func attribute(
        _ name: String, _ type: AttributeType, optional: Bool = false, transient: Bool = false,
        modifier: String? = nil, preserveAfterDeletion: Bool = false, externalStorage: Bool = false,
        transformer: String? = nil
    ) -> PropertyDescription {
        .attribute(AttributeDescription(
            name: name, type: type, isOptional: optional, isTransient: transient,
            valueTransformerName: transformer, allowsExternalBinaryDataStorage: externalStorage,
            preservesValueInHistoryOnDeletion: preserveAfterDeletion, versionHashModifier: modifier))
    }

    /// A `<relationship>` element: no `toMany` means `maxCount="1"`; a to-many without `maxCount` is 0.
    static func relationship(
        _ name: String, _ destination: String, inverse: String?, toMany: Bool, optional: Bool = true,
        ordered: Bool = false, deleteRule: DeleteRule = .nullify, minCount: Int = 0, maxCount: Int? = nil
    ) -> PropertyDescription {
        .relationship(RelationshipDescription(
            name: name, destination: destination, inverse: inverse, toMany: toMany, isOrdered: ordered,
            minCount: minCount, maxCount: maxCount, deleteRule: deleteRule, isOptional: optional))
    }

    static func expectHashes(
        _ model: ManagedObjectModel, _ expected: [String: String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(model.entityVersionHashesByName.keys.sorted() == expected.keys.sorted(), sourceLocation: sourceLocation)
        for (name, hex) in expected.sorted(by: { $0.key < $1.key }) {
            let actual = model.entityVersionHashesByName[name].map(hexString) ?? "missing"
            #expect(actual == hex, "entity \(name)", sourceLocation: sourceLocation)
            #expect(model.entity(named: name)?.versionHash == data(hex: hex), sourceLocation: sourceLocation)
        }
    }

    // MARK: Apple compatibility

    /// bignerdranch/CoreDataStack `Sample Model/Deprecated/Sample.xcdatamodeld/TestModel.xcdatamodel/contents`.
    static func bigNerdRanchTestModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription("Author") {
                attribute("firstName", .string, optional: true)
                attribute("lastName", .string, optional: true)
                relationship("books", "Book", inverse: "authors", toMany: true)
            },
            EntityDescription("Book") {
                attribute("title", .string, optional: true)
                relationship("authors", "Author", inverse: "books", toMany: true)
            },
        ])
    }

    @Test("CoreDataStack TestModel.sqlite: a plain many-to-many")
    func bigNerdRanchTestModelHashes() throws {
        // NSStoreModelVersionHashes of bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite
        // (Z_METADATA.Z_PLIST, written by Core Data, NSPersistenceFrameworkVersion 637).
        Self.expectHashes(try Self.bigNerdRanchTestModel(), [
            "Author": "cbc1f5c274ebf414474c4e350f73b14b1dd356c22782ae7488810d597188c46d",
            "Book": "292c923e48c2cbeea5a113bb7685fbc63ab800c0bbc242ad17a0f2e2a1e08f5c",
        ])
    }

    /// alemar11/CoreDataPlus `Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel/contents`.
    @Test("CoreDataPlus SampleModel3_V1.sqlite: hashes, digest and checksum")
    func coreDataPlusSampleModel3() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription("User") {
                Self.attribute("name", .string)
                Self.attribute("petName", .string, optional: true)
            },
        ], versionIdentifiers: ["1"])
        // alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3_V1.sqlite, Z_METADATA.Z_PLIST.
        Self.expectHashes(model, ["User": "6b31f4e97b691d16c4c820bae55f89408d47013bd42151ecfde1eac7fe4be798"])
        // NSStoreModelVersionHashesDigest (base64 in the plist, hex here).
        #expect(hexString(model.versionHashesDigest)
            == "d0a2c1fc59cbf2ba0c7207accde0b19cf9ef62a9e7e15cc1d83a453fa72caab0caccb07a7f21b9aeb55f8d8e43b67431c78df9e685ae285b9b94f7f6268d545a")
        // NSStoreModelVersionChecksumKey (base64 in the plist, hex here).
        #expect(hexString(model.versionChecksum) == "bbdef4420621447109188b74cd0af5521b992f6649d4ac414be07bae4031d229")
    }

    /// alemar11/CoreDataPlus `Tests/Resources/SampleModel/SampleModel.xcdatamodeld/SampleModel.xcdatamodel/contents`:
    /// three-level inheritance, uniqueness constraints, transient attributes, a transformable, a
    /// UUID preserved after deletion.
    @Test("CoreDataPlus SampleModel_V1.sqlite: inheritance, constraints, transients")
    func coreDataPlusSampleModel() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription("Car", uniquenessConstraints: [["numberPlate"]]) {
                Self.attribute("color", .transformable, optional: true, transformer: "ColorTransformer")
                Self.attribute("currentDrivingSpeed", .integer64, optional: true, transient: true)
                Self.attribute("maker", .string, optional: true)
                Self.attribute("markedForDeletionAsOf", .date, optional: true)
                Self.attribute("model", .string, optional: true)
                Self.attribute("numberPlate", .string)
                Self.relationship("owner", "Person", inverse: "cars", toMany: false)
            },
            EntityDescription("ExpensiveSportCar", parent: "SportCar") {
                Self.attribute("isLimitedEdition", .boolean, optional: true)
            },
            EntityDescription("Person", uniquenessConstraints: [["firstName", "lastName"]]) {
                Self.attribute("firstName", .string, optional: true)
                Self.attribute("id", .uuid, preserveAfterDeletion: true)
                Self.attribute("isDriving", .boolean, transient: true)
                Self.attribute("lastName", .string, optional: true)
                Self.attribute("updatedAt", .date)
                Self.relationship("cars", "Car", inverse: "owner", toMany: true)
            },
            EntityDescription("SportCar", parent: "Car"),
        ], versionIdentifiers: ["1"])
        // alemar11__CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel_V1.sqlite, Z_METADATA.Z_PLIST.
        Self.expectHashes(model, [
            "Car": "9e555529072158220d1bacd2f80a3dad4919f74a32aa8be9ee22a6a7b4126c8f",
            "ExpensiveSportCar": "3dc7e32b1be45b5a4c795ac9af3e1d10aa7222d3c69ae805bbeb4408bdeba480",
            "Person": "164268551b45108ae763aa2ba61ff32d32d32323850987c3e21607c8da44b72b",
            "SportCar": "514ec1907a568299f9fb6851106516136f0755f45fa53a823a0e4d44013d5313",
        ])
        // NSStoreModelVersionHashesDigest of the same store.
        #expect(hexString(model.versionHashesDigest)
            == "7c00afc31b72d105ab8ad2855f7fcb4ed5d9bc8eb852715c46d3faa9c8d6d58974a30afeac7f92a42bf3cbfb83611a649cc5db81a71ddecae7f70984d8a90bf1")
    }

    /// duckduckgo/BrowserServicesKit `Sources/Bookmarks/BookmarksModel.xcdatamodeld/BookmarksModel.xcdatamodel/contents`:
    /// self-referential relationships, ordered to-many.
    @Test("BrowserServicesKit Bookmarks_V1.sqlite: self-referential, ordered")
    func bookmarksV1() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription("BookmarkEntity") {
                Self.attribute("isFavorite", .boolean)
                Self.attribute("isFolder", .boolean)
                Self.attribute("title", .string, optional: true)
                Self.attribute("url", .string, optional: true)
                Self.attribute("uuid", .string)
                Self.relationship("children", "BookmarkEntity", inverse: "parent", toMany: true, ordered: true, deleteRule: .cascade)
                Self.relationship("favoriteFolder", "BookmarkEntity", inverse: "favorites", toMany: false)
                Self.relationship("favorites", "BookmarkEntity", inverse: "favoriteFolder", toMany: true, ordered: true)
                Self.relationship("parent", "BookmarkEntity", inverse: "children", toMany: false)
            },
        ])
        // duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V1.sqlite, Z_METADATA.Z_PLIST.
        Self.expectHashes(model, ["BookmarkEntity": "c37ad9b31a1ce3faf258164444717a730317dee04efa4191d31086d2179f9c20"])
        #expect(hexString(model.versionHashesDigest)
            == "e4a94aad54e1c5ca1748bf998c5298ee7d3ac8b3a9fb286480a71811dfd7d912bff549b32b2f00e3f5f5d4f676bd1f4d8c221b78cee336af44a001ccbfcca495")
    }

    /// duckduckgo/BrowserServicesKit `Sources/Bookmarks/BookmarksModel.xcdatamodeld/BookmarksModel 5.xcdatamodel/contents`:
    /// property version hash modifiers, fetch indexes (not hashed), a renamed relationship.
    @Test("BrowserServicesKit Bookmarks_V5.sqlite: version hash modifiers")
    func bookmarksV5() throws {
        let indexes = [
            FetchIndexDescription(name: "byUUID", elements: [.init(property: "uuid"), .init(property: "isPendingDeletion")]),
            FetchIndexDescription(name: "byURL", elements: [.init(property: "url"), .init(property: "isPendingDeletion")]),
            FetchIndexDescription(name: "byIsPendingDeletion", elements: [.init(property: "isPendingDeletion")]),
        ]
        let model = try ManagedObjectModel(entities: [
            EntityDescription("BookmarkEntity", indexes: indexes) {
                Self.attribute("isFolder", .boolean)
                Self.attribute("isPendingDeletion", .boolean, optional: true, modifier: "3")
                Self.attribute("lastChildrenPayloadReceivedFromSync", .string, optional: true)
                Self.attribute("modifiedAt", .date, optional: true)
                Self.attribute("title", .string, optional: true)
                Self.attribute("url", .string, optional: true, modifier: "3")
                Self.attribute("uuid", .string, modifier: "3")
                Self.relationship("children", "BookmarkEntity", inverse: "parent", toMany: true, ordered: true, deleteRule: .cascade)
                Self.relationship("favoriteFolders", "BookmarkEntity", inverse: "favorites", toMany: true)
                Self.relationship("favorites", "BookmarkEntity", inverse: "favoriteFolders", toMany: true, ordered: true)
                Self.relationship("parent", "BookmarkEntity", inverse: "children", toMany: false)
            },
        ])
        // duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V5.sqlite, Z_METADATA.Z_PLIST.
        Self.expectHashes(model, ["BookmarkEntity": "84f07c047d39108d666df9d08af728b3197383bda698febf3b90997db4fd5929"])
        #expect(hexString(model.versionHashesDigest)
            == "f5661fedad9e9c929a2f8c0a000818c2ac87004435d996897e7a412ea9dba7acb36a62f52cbc6ffb02b2a1a92941a0d95355135c3d76c52565b27d200e47ffa1")
    }

    /// `BookmarksModel 2`, `3` and `4.xcdatamodel/contents` of duckduckgo/BrowserServicesKit: the
    /// migration steps between V1 and V5 (modifiers "2" then "3", new attributes, a to-one
    /// `favoriteFolder` becoming the to-many `favoriteFolders`).
    static func bookmarks(version: Int) -> EntityDescription {
        let modifier = version == 2 ? "2" : "3"
        return EntityDescription("BookmarkEntity") {
            if version == 2 {
                attribute("isFavorite", .boolean)
            }
            attribute("isFolder", .boolean)
            if version >= 3 {
                attribute("isPendingDeletion", .boolean, optional: true, modifier: "3")
                attribute("modifiedAt", .date, optional: true)
            }
            attribute("title", .string, optional: true)
            attribute("url", .string, optional: true, modifier: modifier)
            attribute("uuid", .string, modifier: modifier)
            relationship("children", "BookmarkEntity", inverse: "parent", toMany: true, ordered: true, deleteRule: .cascade)
            if version >= 4 {
                relationship("favoriteFolders", "BookmarkEntity", inverse: "favorites", toMany: true)
                relationship("favorites", "BookmarkEntity", inverse: "favoriteFolders", toMany: true, ordered: true)
            } else {
                relationship("favoriteFolder", "BookmarkEntity", inverse: "favorites", toMany: false)
                relationship("favorites", "BookmarkEntity", inverse: "favoriteFolder", toMany: true, ordered: true)
            }
            relationship("parent", "BookmarkEntity", inverse: "children", toMany: false)
        }
    }

    @Test("BrowserServicesKit Bookmarks_V2…V4.sqlite: the migration series", arguments: [
        // NSStoreModelVersionHashes of duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V<n>.sqlite.
        (2, "99d650930f7e484410207feedd129b42f5e7acff83ab6a9bf61b9a6d88bdd382"),
        (3, "698b764beb72a2bc90217ab9a670d90d9ce1663b71c15f675ccbfb46e7ff76a5"),
        (4, "6a086c9544c0adc6674e37b1a2cd4bc7edcd94de224c61fc603864844cb5f8f6"),
    ])
    func bookmarksSeries(version: Int, hash: String) throws {
        let model = try ManagedObjectModel(entities: [Self.bookmarks(version: version)])
        Self.expectHashes(model, ["BookmarkEntity": hash])
    }

    @Test("The digest and checksum follow VERSION-HASHES.md byte for byte")
    func digestLayout() throws {
        let model = try Self.bigNerdRanchTestModel()
        let author = try #require(model.entityVersionHashesByName["Author"])
        let book = try #require(model.entityVersionHashesByName["Book"])
        let digestInput = Array("Author".utf8) + Array(author) + Array("Book".utf8) + Array(book)
        #expect(model.versionHashesDigest == Data(SHA2.sha512(digestInput)))
        #expect(model.versionChecksum == Data(SHA2.sha256(Array(author) + Array(book))))
    }

    /// Little-endian bytes of an integer.
    static func le<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    @Test("An entity hash is built as VERSION-HASHES.md lays it out")
    func layoutFromTheSpecification() throws {
        // Person { name: String, required; spouse: to-one Person, its own inverse; friends: to-many
        // Person, ordered, inverse friendOf; friendOf: to-many Person, inverse friends }.
        let model = try ManagedObjectModel(entities: [
            EntityDescription("Person", versionHashModifier: "m", uniquenessConstraints: [["name"], ["name", "spouse"]]) {
                Self.attribute("name", .string)
                Self.relationship("spouse", "Person", inverse: "spouse", toMany: false)
                Self.relationship("friends", "Person", inverse: "friendOf", toMany: true, ordered: true)
                Self.relationship("friendOf", "Person", inverse: "friends", toMany: true)
            },
        ])
        func sha(_ bytes: [UInt8]) -> [UInt8] { SHA2.sha256(bytes) }
        let name = sha(sha(Array("name".utf8) + Self.le(UInt16(0))) + Self.le(Int32(700)))
        // A relationship that is its own inverse leaves the inverse name out.
        let spouse = sha(sha(Array("spouse".utf8) + Self.le(UInt16(1))) + Array("Person".utf8)
                         + Self.le(Int32(1)) + Self.le(Int32(0)))
        let friends = sha(sha(Array("friends".utf8) + Self.le(UInt16(1))) + Array("Person".utf8) + Array("friendOf".utf8)
                          + Self.le(Int32(0)) + Self.le(Int32(0)) + Self.le(UInt16(1)))
        let friendOf = sha(sha(Array("friendOf".utf8) + Self.le(UInt16(1))) + Array("Person".utf8) + Array("friends".utf8)
                           + Self.le(Int32(0)) + Self.le(Int32(0)))
        // Properties in name order ("friendOf" < "friends" < "name" < "spouse"), then the
        // modifier, then the sorted constraints.
        let entity = sha(Array("Person".utf8) + [0] + friendOf + friends + name + spouse
                         + Array("m".utf8) + Array("name".utf8) + Array("name.spouse".utf8))
        #expect(model.entityVersionHashesByName["Person"] == Data(entity))
    }

    // MARK: Stability

    @Test("The same model built twice has the same hashes")
    func stable() throws {
        #expect(try SampleModels.moody().entityVersionHashesByName == SampleModels.moody().entityVersionHashesByName)
        #expect(try SampleModels.library().entityVersionHashesByName == SampleModels.library().entityVersionHashesByName)
        for (_, hash) in try SampleModels.library().entityVersionHashesByName { #expect(hash.count == 32) }
    }

    @Test("Entity order in the model does not change hashes")
    func orderIndependent() throws {
        let library = try SampleModels.library()
        let reversed = try ManagedObjectModel(entities: library.entities.reversed().map { entity in
            var copy = EntityDescription(entity.name, parent: entity.superentityName, isAbstract: entity.isAbstract)
            copy.declaredProperties = entity.declaredProperties
            return copy
        })
        #expect(reversed.entityVersionHashesByName == library.entityVersionHashesByName)
    }

    /// A one-entity model with an attribute and a relationship, changed by `change`.
    static func person(_ change: (inout EntityDescription, inout EntityDescription) -> Void = { _, _ in }) throws -> [String: Data] {
        var person = EntityDescription("Person") {
            Attribute("name", .string, optional: false)
            Attribute("age", .integer16)
            Relationship("home", to: "Place", inverse: "residents")
        }
        var place = EntityDescription("Place") {
            Attribute("label", .string)
            Relationship("residents", toMany: "Person", inverse: "home")
        }
        change(&person, &place)
        return try ManagedObjectModel(entities: [person, place]).entityVersionHashesByName
    }

    static func mutateAttribute(_ entity: inout EntityDescription, _ name: String, _ body: (inout AttributeDescription) -> Void) {
        guard let index = entity.declaredProperties.firstIndex(where: { $0.name == name }),
              case .attribute(var attribute) = entity.declaredProperties[index] else { return }
        body(&attribute)
        entity.declaredProperties[index] = .attribute(attribute)
    }

    static func mutateRelationship(_ entity: inout EntityDescription, _ name: String, _ body: (inout RelationshipDescription) -> Void) {
        guard let index = entity.declaredProperties.firstIndex(where: { $0.name == name }),
              case .relationship(var relationship) = entity.declaredProperties[index] else { return }
        body(&relationship)
        entity.declaredProperties[index] = .relationship(relationship)
    }

    @Test("What Core Data leaves out of the hash does not change it")
    func nonHashedInputs() throws {
        let base = try Self.person()
        let unchanged: [(String, (inout EntityDescription, inout EntityDescription) -> Void)] = [
            ("default value", { person, _ in Self.mutateAttribute(&person, "age") { $0.defaultValue = .integer(3) } }),
            ("indexed", { person, _ in Self.mutateAttribute(&person, "age") { $0.isIndexed = true } }),
            ("attribute user info", { person, _ in Self.mutateAttribute(&person, "age") { $0.userInfo = ["k": "v"] } }),
            ("minimum and maximum", { person, _ in Self.mutateAttribute(&person, "age") { $0.minimum = 0; $0.maximum = 150 } }),
            ("regular expression", { person, _ in Self.mutateAttribute(&person, "name") { $0.regularExpression = "[a-z]+" } }),
            ("renaming identifier", { person, _ in Self.mutateAttribute(&person, "name") { $0.renamingIdentifier = "fullName" } }),
            ("delete rule", { person, _ in Self.mutateRelationship(&person, "home") { $0.deleteRule = .deny } }),
            ("relationship user info", { person, _ in Self.mutateRelationship(&person, "home") { $0.userInfo = ["a": "b"] } }),
            ("entity user info", { person, _ in person.userInfo = ["x": "y"] }),
            ("class name", { person, _ in person.managedObjectClassName = "PersonMO" }),
            ("entity renaming identifier", { person, _ in person.renamingIdentifier = "Human" }),
            ("index", { person, _ in person.indexes = [FetchIndexDescription(name: "byAge", elements: [.init(property: "age")])] }),
            ("fetched property", { person, _ in
                person.declaredProperties.append(.fetchedProperty(FetchedPropertyDescription(name: "neighbours", destination: "Person")))
            }),
            ("property order", { person, _ in person.declaredProperties.reverse() }),
        ]
        for (label, change) in unchanged {
            #expect(try Self.person(change) == base, "changing the \(label) changed a hash")
        }
    }

    @Test("What Core Data hashes changes the hash")
    func hashedInputs() throws {
        let base = try Self.person()
        let changes: [(String, (inout EntityDescription, inout EntityDescription) -> Void)] = [
            ("attribute name", { person, _ in Self.mutateAttribute(&person, "age") { $0.name = "years" } }),
            ("optional", { person, _ in Self.mutateAttribute(&person, "age") { $0.isOptional = false } }),
            ("transient", { person, _ in Self.mutateAttribute(&person, "age") { $0.isTransient = true } }),
            ("type", { person, _ in Self.mutateAttribute(&person, "age") { $0.type = .integer32 } }),
            ("attribute modifier", { person, _ in Self.mutateAttribute(&person, "age") { $0.versionHashModifier = "2" } }),
            ("external storage", { person, _ in Self.mutateAttribute(&person, "age") { $0.allowsExternalBinaryDataStorage = true } }),
            ("preserved after deletion", { person, _ in Self.mutateAttribute(&person, "age") { $0.preservesValueInHistoryOnDeletion = true } }),
            ("relationship optional", { person, _ in Self.mutateRelationship(&person, "home") { $0.isOptional = false } }),
            ("relationship min count", { person, _ in Self.mutateRelationship(&person, "home") { $0.minCount = 1 } }),
            ("relationship modifier", { person, _ in Self.mutateRelationship(&person, "home") { $0.versionHashModifier = "x" } }),
            ("added attribute", { person, _ in person.declaredProperties.append(.attribute(AttributeDescription(name: "email", type: .string))) }),
            ("entity modifier", { person, _ in person.versionHashModifier = "v2" }),
            ("abstract", { person, _ in person.isAbstract = true }),
            ("uniqueness constraint", { person, _ in person.uniquenessConstraints = [["name"]] }),
        ]
        for (label, change) in changes {
            let changed = try Self.person(change)
            #expect(changed["Person"] != base["Person"], "changing the \(label) left the hash alone")
            #expect(changed["Place"] == base["Place"], "changing Person's \(label) changed Place's hash")
        }
        // Changing the inverse side changes the other entity only.
        let orderedResidents = try Self.person { _, place in Self.mutateRelationship(&place, "residents") { $0.isOrdered = true } }
        #expect(orderedResidents["Place"] != base["Place"])
        #expect(orderedResidents["Person"] == base["Person"])
    }

    @Test("Renaming an entity changes its hash; a parent's change reaches its children")
    func entityNameAndParent() throws {
        let school = try SampleModels.school()
        let renamed = try ManagedObjectModel {
            EntityDescription("Human") {
                Attribute("name", .string)
            }
            EntityDescription("Teacher", parent: "Human") {
                Attribute("subject", .string)
            }
        }
        #expect(renamed.entityVersionHashesByName["Human"] != school.entityVersionHashesByName["Person"])
        // Same properties, different parent hash.
        #expect(renamed.entityVersionHashesByName["Teacher"] != school.entityVersionHashesByName["Teacher"])

        let changedParent = try ManagedObjectModel {
            EntityDescription("Person", versionHashModifier: "2") {
                Attribute("name", .string)
            }
            EntityDescription("Teacher", parent: "Person") {
                Attribute("subject", .string)
            }
            EntityDescription("Pupil", parent: "Person") {
                Attribute("grade", .integer16)
            }
        }
        #expect(changedParent.entityVersionHashesByName["Teacher"] != school.entityVersionHashesByName["Teacher"])
        #expect(changedParent.entityVersionHashesByName["Pupil"] != school.entityVersionHashesByName["Pupil"])
    }

    @Test("Two entities with the same properties but different names hash differently")
    func namesDistinguish() throws {
        let model = try ManagedObjectModel {
            EntityDescription("A") {
                Attribute("x", .string)
            }
            EntityDescription("B") {
                Attribute("x", .string)
            }
        }
        #expect(model.entityVersionHashesByName["A"] != model.entityVersionHashesByName["B"])
    }
}
