import Foundation
import Testing
import StrataCore
import StrataTestSupport

@Suite("ManagedObjectID")
struct ManagedObjectIDTests {
    static let storeUUID = "8E2B5F3A-1C4D-4E6F-9A0B-1C2D3E4F5A6B"

    // MARK: Format

    @Test("A permanent ID's URI is x-coredata://<store>/<Entity>/p<pk>")
    func permanentFormat() throws {
        let id = ManagedObjectID(entityName: "Student", storeIdentifier: Self.storeUUID, primaryKey: 42)
        #expect(id.uriRepresentation.absoluteString == "x-coredata://\(Self.storeUUID)/Student/p42")
        #expect(id.description == "x-coredata://\(Self.storeUUID)/Student/p42")
        #expect(!id.isTemporaryID)
        #expect(id.primaryKey == 42)
        #expect(id.storeIdentifier == Self.storeUUID)
        #expect(id.entityName == "Student")
    }

    @Test("A temporary ID's URI is x-coredata:///<Entity>/t<UUID>")
    func temporaryFormat() throws {
        let id = ManagedObjectID.temporary(entityName: "Student")
        #expect(id.isTemporaryID)
        #expect(id.primaryKey == nil)
        #expect(id.storeIdentifier == nil)
        let text = id.uriRepresentation.absoluteString
        #expect(text.hasPrefix("x-coredata:///Student/t"))
        let uuidText = String(text.dropFirst("x-coredata:///Student/t".count))
        let uuid = try #require(UUID(uuidString: uuidText))
        #expect(uuid.uuidString == uuidText)
        #expect(ManagedObjectID.temporary(entityName: "Student") != id, "each temporary ID is new")
    }

    @Test("IDs are equal by entity, store and key")
    func equality() {
        let a = ManagedObjectID(entityName: "Book", storeIdentifier: Self.storeUUID, primaryKey: 3)
        #expect(a == ManagedObjectID(entityName: "Book", storeIdentifier: Self.storeUUID, primaryKey: 3))
        #expect(a != ManagedObjectID(entityName: "Magazine", storeIdentifier: Self.storeUUID, primaryKey: 3))
        #expect(a != ManagedObjectID(entityName: "Book", storeIdentifier: Self.storeUUID, primaryKey: 4))
        #expect(a != ManagedObjectID(entityName: "Book", storeIdentifier: UUID().uuidString, primaryKey: 3))
        #expect(Set([a, a]).count == 1)
    }

    @Test("An ID keeps the spelling of its entity name, equal to other spellings of the same text")
    func spellingIsKept() {
        let composed = ManagedObjectID(entityName: "Caf\u{E9}", storeIdentifier: Self.storeUUID, primaryKey: 1)
        let decomposed = ManagedObjectID(entityName: "Cafe\u{301}", storeIdentifier: Self.storeUUID, primaryKey: 1)
        #expect(composed == decomposed, "names compare as strings do")
        #expect(Array(composed.entityName.unicodeScalars) == ["C", "a", "f", "\u{E9}"])
        #expect(Array(decomposed.entityName.unicodeScalars) == ["C", "a", "f", "e", "\u{301}"])
        #expect(ManagedObjectID(entityName: "Cafe\u{301}", storeIdentifier: Self.storeUUID, primaryKey: 1).entityName.unicodeScalars.count == 5)
    }

    @Test("IDs of many entity names, past what the scope table holds, stay equal by their names")
    func manyNames() {
        let names = (0..<5_000).map { "Entity\($0)" }
        let first = names.map { ManagedObjectID(entityName: $0, storeIdentifier: Self.storeUUID, primaryKey: 7) }
        // The same names as other strings.
        let second = names.map { ManagedObjectID(entityName: String(decoding: Array($0.utf8), as: UTF8.self), storeIdentifier: Self.storeUUID, primaryKey: 7) }
        #expect(first == second)
        #expect(Set(first + second).count == names.count)
        #expect(zip(first, names).allSatisfy { $0.entityName == $1 && $0.storeIdentifier == Self.storeUUID })
        // Past the limit the table starts over: the IDs of a name made now share one scope again.
        let late = "EntityAfterTheLimit"
        let (one, two) = (ManagedObjectID(entityName: late, storeIdentifier: Self.storeUUID, primaryKey: 1),
                          ManagedObjectID(entityName: String(decoding: Array(late.utf8), as: UTF8.self), storeIdentifier: Self.storeUUID, primaryKey: 2))
        #expect(one.scope === two.scope)
    }

    @Test("A temporary URI of another process parses to a temporary ID that gives it back")
    func foreignTemporary() throws {
        let uuid = "0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0F9"
        let uri = try #require(URL(string: "x-coredata:///Student/t\(uuid)"))
        let id = try #require(ManagedObjectID(parsing: uri))
        #expect(id.isTemporaryID && id.primaryKey == nil && id.storeIdentifier == nil)
        #expect(id.uriRepresentation == uri)
        #expect(ManagedObjectID(parsing: uri) == id)
        #expect(Set([id, try #require(ManagedObjectID(parsing: uri))]).count == 1)
        #expect(id != ManagedObjectID.temporary(entityName: "Student"))
        let own = ManagedObjectID.temporary(entityName: "Student")
        #expect(ManagedObjectID(parsing: own.uriRepresentation) == own)
        #expect(ManagedObjectID(parsing: own.uriRepresentation)?.hashValue == own.hashValue)
    }

    // MARK: Parsing

    @Test("Parsing gives back the ID", arguments: [
        "Student", "My Entity", "Café", "a/b", "100%", "x?y#z", "Ünïcødé✓", "e\u{301}",
    ])
    func roundTrip(entityName: String) throws {
        for primaryKey: Int64 in [1, 7, 1_000_000, Int64.max] {
            let id = ManagedObjectID(entityName: entityName, storeIdentifier: Self.storeUUID, primaryKey: primaryKey)
            let parsed = try #require(ManagedObjectID(parsing: id.uriRepresentation), "\(id.uriRepresentation)")
            #expect(parsed == id)
            #expect(parsed.entityName.unicodeScalars.elementsEqual(entityName.unicodeScalars))
            #expect(parsed.primaryKey == primaryKey)
            // Through text and back, as a URI is stored or sent.
            let reparsed = try #require(URL(string: id.uriRepresentation.absoluteString).flatMap(ManagedObjectID.init(parsing:)))
            #expect(reparsed == id)
        }
        let temporary = ManagedObjectID.temporary(entityName: entityName)
        #expect(ManagedObjectID(parsing: temporary.uriRepresentation) == temporary)
    }

    @Test("A hand-written permanent URI parses")
    func parsesHandWritten() throws {
        let url = try #require(URL(string: "x-coredata://\(Self.storeUUID)/Mood/p9223372036854775807"))
        let id = try #require(ManagedObjectID(parsing: url))
        #expect(id.entityName == "Mood")
        #expect(id.primaryKey == Int64.max)
        #expect(id.storeIdentifier == Self.storeUUID)
    }

    static let hostile: [String] = [
        "http://\(storeUUID)/Student/p1",                          // wrong scheme
        "x-coredata:\(storeUUID)/Student/p1",                       // no authority
        "x-coredata:/\(storeUUID)/Student/p1",
        "coredata://\(storeUUID)/Student/p1",
        "x-coredata://",                                            // nothing
        "x-coredata://\(storeUUID)",                                // no entity, no key
        "x-coredata://\(storeUUID)/Student",                        // no key
        "x-coredata://\(storeUUID)/Student/",                       // empty key
        "x-coredata://\(storeUUID)/p1",                             // no entity
        "x-coredata://\(storeUUID)//p1",                            // empty entity
        "x-coredata://\(storeUUID)/Student/p1/extra",               // extra component
        "x-coredata://\(storeUUID)/School/Student/p1",
        "x-coredata://\(storeUUID)/Student/p1/",
        "x-coredata://\(storeUUID)/Student/p0",                     // keys start at 1
        "x-coredata://\(storeUUID)/Student/p-1",
        "x-coredata://\(storeUUID)/Student/p+1",
        "x-coredata://\(storeUUID)/Student/p",
        "x-coredata://\(storeUUID)/Student/pabc",
        "x-coredata://\(storeUUID)/Student/p12abc",
        "x-coredata://\(storeUUID)/Student/p1.5",
        "x-coredata://\(storeUUID)/Student/p1e3",
        "x-coredata://\(storeUUID)/Student/p0x1F",
        "x-coredata://\(storeUUID)/Student/p9223372036854775808",   // Int64.max + 1
        "x-coredata://\(storeUUID)/Student/p99999999999999999999999999",
        "x-coredata://\(storeUUID)/Student/p%31",                   // percent-encoded digit
        "x-coredata://\(storeUUID)/Student/p%D9%A1",                // Arabic-Indic digit one
        "x-coredata://\(storeUUID)/Student/p1?x=1",                 // query
        "x-coredata://\(storeUUID)/Student/p1#frag",                // fragment
        "x-coredata://\(storeUUID)/Student/q1",                     // unknown marker
        "x-coredata://\(storeUUID)/Student/1",
        "x-coredata://\(storeUUID)/Student/t\(storeUUID)",          // temporary with a store
        "x-coredata:///Student/p1",                                 // permanent without a store
        "x-coredata:///Student/tnot-a-uuid",                        // bad UUID
        "x-coredata:///Student/t",
        "x-coredata:///Student/t\(storeUUID)0",
        "x-coredata:///Student/t\(storeUUID)/x",
        "x-coredata:////t\(storeUUID)",                             // empty entity
        "x-coredata://\(storeUUID)/%E9%FF/p1",                      // percent-encoded bytes that are not UTF-8
        "x-coredata://\(storeUUID)/%C0%AF/p1",                      // overlong UTF-8 for "/"
        "x-coredata://\(storeUUID)/Student/p1 ",                    // trailing space
        "x-coredata://\(storeUUID)/Student/p1%00",                  // NUL after the key
    ]

    /// Foundation's `URL(string:)` repairs a stray `%` into `%25`, so the parser never sees the
    /// garbage: what it gets is a well-formed URI for an entity literally named `%` or `%zz`.
    /// It must then keep that literal name, never decode it into something else.
    @Test("Percent garbage is either refused or kept literally", arguments: ["%", "%zz", "%4", "100%"])
    func percentGarbage(entity: String) {
        guard let url = URL(string: "x-coredata://\(Self.storeUUID)/\(entity)/p1") else { return }
        guard let id = ManagedObjectID(parsing: url) else { return }
        #expect(id.entityName == entity)
        #expect(id.primaryKey == 1)
    }

    @Test("Hostile URIs parse to nil", arguments: hostile)
    func hostileURIs(text: String) {
        // Some of these are not even URLs to Foundation; those cannot reach the parser.
        guard let url = URL(string: text) else { return }
        #expect(ManagedObjectID(parsing: url) == nil, "\(text) parsed")
    }

    @Test("Most hostile URIs are URLs, so the parser really sees them")
    func hostileURIsReachTheParser() {
        let reachable = Self.hostile.filter { URL(string: $0) != nil }
        #expect(reachable.count >= Self.hostile.count - 4)
    }

    @Test("Non-URI URLs parse to nil")
    func fileURLs() {
        #expect(ManagedObjectID(parsing: URL(fileURLWithPath: "/tmp/Student/p1")) == nil)
    }

    // MARK: Through a coordinator

    struct Fixture {
        let model: ManagedObjectModel
        let coordinator: PersistentStoreCoordinator
        let catalog: any PersistentStore
        let notes: any PersistentStore
        let bookID: ManagedObjectID
        let noteID: ManagedObjectID

        init() throws {
            model = try SampleModels.library()
            coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            catalog = try coordinator.addPersistentStore(type: .inMemory, configuration: "Catalog")
            notes = try coordinator.addPersistentStore(type: .inMemory, configuration: "Notes")
            let context = ManagedObjectContext(coordinator: coordinator)
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue("Dune", forKey: "title")
            let note = try context.insertNewObject(forEntityName: "Note")
            try note.setValue("hello", forKey: "text")
            try context.save()
            bookID = book.objectID
            noteID = note.objectID
        }
    }

    @Test("A saved object's URI resolves to its ID")
    func resolvesRealURI() throws {
        let fixture = try Fixture()
        #expect(!fixture.bookID.isTemporaryID)
        #expect(fixture.bookID.storeIdentifier == fixture.catalog.identifier)
        #expect(fixture.noteID.storeIdentifier == fixture.notes.identifier)
        let uri = fixture.bookID.uriRepresentation
        #expect(uri.absoluteString == "x-coredata://\(fixture.catalog.identifier)/Book/p\(try #require(fixture.bookID.primaryKey))")
        #expect(fixture.coordinator.managedObjectID(forURIRepresentation: uri) == fixture.bookID)
        #expect(fixture.coordinator.managedObjectID(forURIRepresentation: fixture.noteID.uriRepresentation) == fixture.noteID)
        // The row is not looked up: a key that was never used still gives an ID.
        let unused = try #require(URL(string: "x-coredata://\(fixture.catalog.identifier)/Book/p999"))
        #expect(fixture.coordinator.managedObjectID(forURIRepresentation: unused)?.primaryKey == 999)
    }

    @Test("Foreign stores, unknown or abstract entities, temporary and malformed URIs give nil")
    func refusesWrongURIs() throws {
        let fixture = try Fixture()
        let store = fixture.catalog.identifier
        let pk = try #require(fixture.bookID.primaryKey)
        let wrong: [String] = [
            "x-coredata://\(UUID().uuidString)/Book/p\(pk)",   // a store not loaded here
            "x-coredata://\(store.lowercased())/Book/p\(pk)",  // store UUIDs are compared exactly
            "x-coredata://\(store)/Bok/p\(pk)",                 // unknown entity
            "x-coredata://\(store)/Publication/p\(pk)",         // abstract entity
            "x-coredata://\(store)/Note/p1",                    // an entity this store's configuration does not hold
            "x-coredata://\(fixture.notes.identifier)/Book/p\(pk)",
            "x-coredata:///Book/t\(UUID().uuidString)",         // temporary
            "x-coredata://\(store)/Book/p0",
            "x-coredata://\(store)/Book/p\(pk)/extra",
            "x-coredata://\(store)/Book",
            "https://\(store)/Book/p\(pk)",
        ]
        for text in wrong {
            let url = try #require(URL(string: text))
            #expect(fixture.coordinator.managedObjectID(forURIRepresentation: url) == nil, "\(text) resolved")
        }
        let temporary = ManagedObjectID.temporary(entityName: "Book")
        #expect(fixture.coordinator.managedObjectID(forURIRepresentation: temporary.uriRepresentation) == nil)
    }

    @Test("A second coordinator with the same store resolves the URI and reads the object")
    func secondCoordinator() throws {
        let fixture = try Fixture()
        let other = PersistentStoreCoordinator(managedObjectModel: fixture.model)
        let uri = fixture.bookID.uriRepresentation
        #expect(other.managedObjectID(forURIRepresentation: uri) == nil, "no store loaded yet")
        try other.addPersistentStore(fixture.catalog)
        let id = try #require(other.managedObjectID(forURIRepresentation: uri))
        #expect(id == fixture.bookID)
        let context = ManagedObjectContext(coordinator: other)
        let book = try context.existingObject(with: id)
        #expect(try book.value(forKey: "title") as? String == "Dune")
        #expect(book.entity.name == "Book")
        // The notes store was not added, so the note does not resolve here.
        #expect(other.managedObjectID(forURIRepresentation: fixture.noteID.uriRepresentation) == nil)
        // Adding the same store twice is refused.
        #expect(throws: StoreError.storeAlreadyLoaded(fixture.catalog.identifier)) {
            try other.addPersistentStore(fixture.catalog)
        }
    }

    @Test("A removed store's URIs no longer resolve")
    func removedStore() throws {
        let fixture = try Fixture()
        try fixture.coordinator.remove(fixture.catalog)
        #expect(fixture.coordinator.managedObjectID(forURIRepresentation: fixture.bookID.uriRepresentation) == nil)
        #expect(fixture.coordinator.managedObjectID(forURIRepresentation: fixture.noteID.uriRepresentation) == fixture.noteID)
    }

    @Test("existingObject throws objectNotFound for a key with no row")
    func missingRow() throws {
        let fixture = try Fixture()
        let ghost = ManagedObjectID(entityName: "Book", storeIdentifier: fixture.catalog.identifier, primaryKey: 999)
        let context = ManagedObjectContext(coordinator: fixture.coordinator)
        #expect(throws: ObjectError.objectNotFound(ghost)) { try context.existingObject(with: ghost) }
        #expect(context.registeredObject(for: ghost) == nil)
    }
}
