import Foundation
import Strata
import StrataTestSupport
import Testing

/// Batch insert, update and delete on every store type: exact values, results, delete rules,
/// requests refused whole, contexts left alone until changes are merged.
@Suite("Batch requests")
struct BatchRequestTests {
    /// Items with every attribute type; a library graph for the delete rules (Shelf ⇒ Book
    /// cascade, ordered; Book ⇒ Note cascade; Book ⇄ Tag many-to-many nullify; Book → Loan deny;
    /// Comic a sub-entity of Book); coupons with a unique code.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Item") {
                Attribute("number", .integer32, optional: false)
                Attribute("big", .integer64)
                Attribute("small", .integer16)
                Attribute("name", .string)
                Attribute("price", .decimal)
                Attribute("weight", .double)
                Attribute("ratio", .float)
                Attribute("flag", .boolean)
                Attribute("when", .date)
                Attribute("blob", .binaryData)
                Attribute("uuid", .uuid)
                Attribute("link", .uri)
                Attribute("status", .string, defaultValue: .string("new"))
                Attribute("scratch", .string, transient: true)
            }
            EntityDescription("Shelf") {
                Attribute("name", .string)
                Relationship("books", toMany: "Book", inverse: "shelf", ordered: true, deleteRule: .cascade)
            }
            EntityDescription("Book") {
                Attribute("title", .string, optional: false)
                Attribute("year", .integer16)
                Relationship("shelf", to: "Shelf", inverse: "books", deleteRule: .nullify)
                Relationship("tags", toMany: "Tag", inverse: "books", deleteRule: .nullify)
                Relationship("notes", toMany: "Note", inverse: "book", deleteRule: .cascade)
                Relationship("loans", toMany: "Loan", inverse: "book", deleteRule: .deny)
            }
            EntityDescription("Comic", parent: "Book") {
                Attribute("artist", .string)
            }
            EntityDescription("Tag") {
                Attribute("name", .string)
                Relationship("books", toMany: "Book", inverse: "tags", deleteRule: .nullify)
            }
            EntityDescription("Note") {
                Attribute("text", .string)
                Relationship("book", to: "Book", inverse: "notes", deleteRule: .nullify)
            }
            EntityDescription("Loan") {
                Attribute("who", .string)
                Relationship("book", to: "Book", inverse: "loans", deleteRule: .nullify)
            }
            EntityDescription("Coupon", uniquenessConstraints: [["code"]]) {
                Attribute("code", .string)
            }
        }
    }

    // MARK: Items with every type

    /// The values of item `i` as a batch insert takes them (Swift values) and as they are stored.
    static func item(_ i: Int) -> (given: [String: Any?], stored: [String: AttributeValue]) {
        var given: [String: Any?] = [
            "number": i,
            "big": Int64(i) * 9_007_199_254_740_993 % Int64.max,
            "small": Int16(i % 30_000 - 15_000),
            "price": Decimal(string: "\(i).12345678901234567890", locale: Locale(identifier: "en_US_POSIX")),
            "weight": i == 0 ? -0.0 : (i == 1 ? Double.nan : Double(i) / 7),
            "ratio": Float(i) / 3,
            "flag": i % 2 == 0,
            "when": Date(timeIntervalSinceReferenceDate: Double(i) * 1_000.000_001),
            "blob": Data((0..<(i % 5)).map { UInt8(($0 + i) % 256) }),
            "uuid": UUID(uuid: (UInt8(i % 256), UInt8(i / 256), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)),
            "link": URL(string: "https://example.com/items/\(i)?q=a%20b"),
        ]
        if i % 10 != 9 { given["name"] = "item \(i) \u{0}é\u{301}😀" }
        if i % 7 == 3 { given["status"] = "used" }
        if i % 11 == 4 { given["status"] = .some(nil) }   // present and nil: no default
        var stored: [String: AttributeValue] = [
            "number": .integer(Int64(i)),
            "big": .integer(Int64(i) * 9_007_199_254_740_993 % Int64.max),
            "small": .integer(Int64(i % 30_000 - 15_000)),
            "price": .decimal(Decimal(string: "\(i).12345678901234567890", locale: Locale(identifier: "en_US_POSIX")) ?? 0),
            "weight": .double(i == 0 ? -0.0 : (i == 1 ? Double.nan : Double(i) / 7)),
            "ratio": .float(Float(i) / 3),
            "flag": .boolean(i % 2 == 0),
            "when": .date(Date(timeIntervalSinceReferenceDate: Double(i) * 1_000.000_001)),
            "blob": .binary(Data((0..<(i % 5)).map { UInt8(($0 + i) % 256) })),
            "uuid": .uuid(UUID(uuid: (UInt8(i % 256), UInt8(i / 256), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14))),
            "link": .uri(URL(string: "https://example.com/items/\(i)?q=a%20b") ?? URL(fileURLWithPath: "/")),
            "status": .string("new"),
        ]
        if i % 10 != 9 { stored["name"] = .string("item \(i) \u{0}é\u{301}😀") }
        if i % 7 == 3 { stored["status"] = .string("used") }
        if i % 11 == 4 { stored["status"] = nil }
        return (given, stored)
    }

    /// The stored values of every item, by number.
    private func storedItems(_ context: ManagedObjectContext) throws -> [Int: [String: AttributeValue]] {
        let attributes = context.persistentStoreCoordinator.managedObjectModel.entity(named: "Item")?.attributes
            .filter { !$0.isTransient }.map(\.name) ?? []
        var items: [Int: [String: AttributeValue]] = [:]
        for object in try context.fetch(FetchRequest(entityName: "Item")) {
            var values: [String: AttributeValue] = [:]
            for key in attributes { values[key] = try object.primitiveValue(forKey: key) }
            guard case .integer(let number)? = values["number"] else { continue }
            items[Int(number)] = values
        }
        return items
    }

    @Test("1,000 objects of every attribute type go in through one request and come back exactly, also after reopening",
          arguments: StoreUnderTest.all)
    func insertThousand(store: StoreUnderTest) throws {
        let (coordinator, persistentStore) = try store.makeCoordinator(model: Self.model())
        let context = ManagedObjectContext(coordinator: coordinator)
        var request = BatchInsertRequest(entityName: "Item", objects: (0..<1_000).map { Self.item($0).given })
        request.resultType = .objectIDs
        let result = try context.execute(request)
        let ids = try #require(result.objectIDs)
        #expect(ids.count == 1_000)
        #expect(result.count == 1_000)
        #expect(result.status)
        #expect(Set(ids).count == 1_000)
        #expect(ids.allSatisfy { !$0.isTemporaryID && $0.entityName == "Item" && $0.storeIdentifier == persistentStore.identifier })
        #expect(ids.compactMap(\.primaryKey) == Array(1...1_000))
        #expect(context.registeredObjects.isEmpty, "a batch insert registers nothing")
        #expect(!context.hasChanges)
        #expect(result.changes == [ManagedObjectContext.insertedObjectsKey: ids])

        var contexts = [context.freshContext()]
        if store.hasFile, let url = persistentStore.url {
            let reopened = PersistentStoreCoordinator(managedObjectModel: try Self.model())
            try reopened.addPersistentStore(type: store.type, at: url)
            contexts.append(ManagedObjectContext(coordinator: reopened))
        }
        for reader in contexts {
            let items = try storedItems(reader)
            #expect(items.count == 1_000)
            var mismatches: [Int] = []
            for i in 0..<1_000 where items[i] != Self.item(i).stored { mismatches.append(i) }
            #expect(mismatches.isEmpty, "items \(mismatches.prefix(5)) differ: \(mismatches.first.map { "\(items[$0] ?? [:])" } ?? "")")
        }

        // Keys keep counting after the batch: a context insert takes the next one.
        let next = try context.insert("Item", ["number": 5_000])
        try context.save()
        #expect(next.objectID.primaryKey == 1_001)
    }

    @Test("A dictionary handler is called until it returns true; defaults fill absent keys", arguments: StoreUnderTest.all)
    func insertFromHandler(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        var calls = 0
        var request = BatchInsertRequest(entityName: "Item") { values in
            calls += 1
            guard calls <= 25 else {
                values["number"] = -1   // the dictionary of the last call is not inserted
                return true
            }
            values["number"] = calls
            if calls.isMultiple(of: 5) { values["status"] = "fifth" }
            return false
        }
        request.resultType = .count
        let result = try context.execute(request)
        #expect(calls == 26)
        #expect(result.count == 25)
        #expect(result.objectIDs == nil)
        #expect(result.changes.isEmpty)
        let statuses = try context.fetch(sortedRequest("Item", by: "number")).map { try $0.string("status") }
        #expect(statuses == (1...25).map { $0.isMultiple(of: 5) ? "fifth" : "new" })

        let status = try context.execute(BatchInsertRequest(entityName: "Item", objects: [["number": 99]]))
        #expect(status.resultType == .statusOnly && status.status && status.count == nil)
        #expect(try context.count("Item") == 26)
    }

    @Test("A bad object anywhere in an insert refuses it whole, naming its index and key", arguments: StoreUnderTest.all)
    func insertRefused(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        _ = try context.execute(BatchInsertRequest(entityName: "Item", objects: [["number": 1]]))
        _ = try context.execute(BatchInsertRequest(entityName: "Coupon", objects: [["code": "TAKEN"]]))
        func objects(_ bad: [String: Any?], at index: Int = 7) -> [[String: Any?]] {
            (0..<10).map { $0 == index ? bad : ["number": 100 + $0] }
        }
        let cases: [(String, [[String: Any?]], BatchRequestError)] = [
            ("Item", objects(["number": "seven"]),
             .invalidValue(index: 7, key: "number", error: .wrongValueType(entity: "Item", key: "number", expected: .integer32, found: "String"))),
            ("Item", objects(["number": 1, "small": 40_000]),
             .invalidValue(index: 7, key: "small", error: .valueOutOfRange(entity: "Item", key: "small", value: "40000"))),
            ("Item", objects(["number": 1, "colour": "red"]), .unknownKey(index: 7, entity: "Item", key: "colour")),
            ("Item", objects(["number": 1, "scratch": "x"]), .notStored(index: 7, entity: "Item", key: "scratch")),
            ("Item", objects(["status": "no number"], at: 0), .missingValue(index: 0, entity: "Item", key: "number")),
            ("Item", objects(["number": nil], at: 9), .missingValue(index: 9, entity: "Item", key: "number")),
            ("Book", [["title": "A", "shelf": nil]], .notAnAttribute(index: 0, entity: "Book", key: "shelf")),
            ("Coupon", [["code": "A"], ["code": "B"], ["code": "A"]],
             .constraintConflict(index: 2, entity: "Coupon", properties: ["code"], otherIndex: 0, existingObject: nil)),
        ]
        for (entity, objects, expected) in cases {
            let error = try #require(throws: BatchRequestError.self) {
                try context.execute(BatchInsertRequest(entityName: entity, objects: objects))
            }
            #expect(error == expected)
            #expect(!error.description.isEmpty)
        }
        // A coupon whose code a stored coupon holds: the request names both.
        let error = try #require(throws: BatchRequestError.self) {
            try context.execute(BatchInsertRequest(entityName: "Coupon", objects: [["code": "NEW"], ["code": "TAKEN"]]))
        }
        guard case let .constraintConflict(index, entity, properties, otherIndex, existing) = error else {
            Issue.record("expected a constraint conflict, got \(error)")
            return
        }
        #expect(index == 1 && entity == "Coupon" && properties == ["code"] && otherIndex == nil)
        #expect(existing?.entityName == "Coupon" && existing?.primaryKey == 1)
        #expect(throws: ObjectError.unknownEntity("Nothing")) {
            try context.execute(BatchInsertRequest(entityName: "Nothing", objects: [[:]]))
        }

        let fresh = context.freshContext()
        #expect(try fresh.count("Item") == 1)
        #expect(try fresh.count("Coupon") == 1)
        #expect(try fresh.count("Book") == 0)
    }

    // MARK: Updates

    private func numbers(_ count: Int, in context: ManagedObjectContext) throws -> [ManagedObjectID] {
        var request = BatchInsertRequest(entityName: "Item", objects: (1...count).map { ["number": $0, "small": $0 % 3] })
        request.resultType = .objectIDs
        return try context.execute(request).objectIDs ?? []
    }

    @Test("An update sets the objects a predicate matches and reports their count or IDs", arguments: StoreUnderTest.all)
    func updateWithPredicate(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        let ids = try numbers(30, in: context)
        var request = BatchUpdateRequest(entityName: "Item", predicate: try ObjectPredicate(format: "small == 0"),
                                         propertiesToUpdate: ["status": "third", "weight": 2.5, "name": nil])
        request.resultType = .count
        #expect(try context.execute(request).count == 10)

        request.predicate = try ObjectPredicate(format: "number > 25")
        request.propertiesToUpdate = ["big": Int16(7), "when": Date(timeIntervalSinceReferenceDate: 1.5)]
        request.resultType = .objectIDs
        let updated = try context.execute(request)
        #expect(Set(try #require(updated.objectIDs)) == Set(ids.suffix(5)))
        #expect(updated.changes == [ManagedObjectContext.updatedObjectsKey: updated.objectIDs ?? []])

        let fresh = context.freshContext()
        let items = try fresh.fetch(sortedRequest("Item", by: "number"))
        #expect(items.count == 30)
        for (index, item) in items.enumerated() {
            let number = index + 1
            #expect(try item.string("status") == (number % 3 == 0 ? "third" : "new"))
            #expect(try item.value(forKey: "weight") as? Double == (number % 3 == 0 ? 2.5 : nil))
            #expect(try item.value(forKey: "big") as? Int64 == (number > 25 ? 7 : nil))
            #expect(try item.primitiveValue(forKey: "when") == (number > 25 ? .date(Date(timeIntervalSinceReferenceDate: 1.5)) : nil))
        }

        // Everything, with no predicate; sub-entities are included or left out as asked.
        #expect(try context.execute(BatchUpdateRequest(entityName: "Item", propertiesToUpdate: ["flag": true])).status)
        #expect(try fresh.count(for: FetchRequest(entityName: "Item", predicate: try ObjectPredicate(format: "flag == YES"))) == 30)
    }

    @Test("An update raises each object's version: stale contexts conflict, merged ones save on top", arguments: StoreUnderTest.all)
    func updateRaisesVersions(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        let ids = try numbers(4, in: context)
        let reader = context.freshContext()
        let first = try reader.existingObject(with: ids[0])
        let second = try reader.existingObject(with: ids[1])
        let untouched = try reader.existingObject(with: ids[3])
        #expect(try first.string("status") == "new")

        var request = BatchUpdateRequest(entityName: "Item", predicate: try ObjectPredicate(format: "number <= 3"),
                                         propertiesToUpdate: ["status": "batched"])
        request.resultType = .objectIDs
        let result = try context.execute(request)
        #expect(try first.string("status") == "new", "registered objects keep their values until merged")

        try second.setValue("mine", forKey: "name")
        let conflict = try #require(throws: StoreError.self) { try reader.save() }
        guard case .mergeConflict(let conflicts) = conflict else {
            Issue.record("expected a merge conflict, got \(conflict)")
            return
        }
        #expect(conflicts.map(\.objectID) == [ids[1]])
        #expect(conflicts.first?.newVersion == 2)

        let recorder = NotificationRecorder(reader)
        try ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [reader])
        #expect(try first.string("status") == "batched")
        #expect(try second.string("status") == "batched")
        #expect(try second.string("name") == "mine", "unsaved changes stay on top")
        #expect(try untouched.string("status") == "new")
        #expect(recorder.notifications.last?.name == ManagedObjectContext.objectsDidChangeNotification)
        #expect(recorder.notifications.last?.changes.updated == Set(ids.prefix(3).filter { reader.registeredObject(for: $0) != nil }))
        try reader.save()
        let checker = context.freshContext()
        let check = try checker.existingObject(with: ids[1])
        #expect(try check.string("name") == "mine")
        #expect(try check.string("status") == "batched")
    }

    @Test("An update takes expressions evaluated on each object, and sub-entities only when asked", arguments: StoreUnderTest.all)
    func updateWithExpressions(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        _ = try numbers(6, in: context)
        let request = BatchUpdateRequest(entityName: "Item", predicate: try ObjectPredicate(format: "number >= 4"),
                                         propertiesToUpdate: ["big": ObjectExpression.keyPath("number"),
                                                              "name": ObjectExpression.value("fixed")])
        #expect(try context.execute(request).status)
        let reader = context.freshContext()
        let items = try reader.fetch(sortedRequest("Item", by: "number"))
        #expect(try items.map { try $0.value(forKey: "big") as? Int64 } == [nil, nil, nil, 4, 5, 6])
        #expect(try items.map { try $0.string("name") } == ["<nil>", "<nil>", "<nil>", "fixed", "fixed", "fixed"])

        // An expression whose value an object cannot take refuses the request whole.
        let bad = BatchUpdateRequest(entityName: "Item", propertiesToUpdate: ["small": ObjectExpression.keyPath("name")])
        let error = try #require(throws: BatchRequestError.self) { try context.execute(bad) }
        guard case .invalidExpressionValue(_, let key, _) = error else {
            Issue.record("expected an invalid expression value, got \(error)")
            return
        }
        #expect(key == "small")
        #expect(try reader.fetch(sortedRequest("Item", by: "number")).map { try $0.value(forKey: "small") as? Int16 }
            == [1, 2, 0, 1, 2, 0])

        // Comics are books: included by default, left out on request.
        _ = try context.execute(BatchInsertRequest(entityName: "Book", objects: [["title": "Book"]]))
        _ = try context.execute(BatchInsertRequest(entityName: "Comic", objects: [["title": "Comic"]]))
        var years = BatchUpdateRequest(entityName: "Book", propertiesToUpdate: ["year": 1999])
        years.resultType = .count
        #expect(try context.execute(years).count == 2)
        years.includesSubentities = false
        years.propertiesToUpdate = ["year": 2001]
        #expect(try context.execute(years).count == 1)
        let books = context.freshContext()
        #expect(try books.fetch(sortedRequest("Book", by: "title")).map { try $0.value(forKey: "year") as? Int16 }
            == [2001, 1999])
    }

    @Test("An update with a bad key or value changes nothing", arguments: StoreUnderTest.all)
    func updateRefused(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        _ = try numbers(5, in: context)
        _ = try context.execute(BatchInsertRequest(entityName: "Coupon", objects: [["code": "A"], ["code": "B"]]))
        let cases: [(String, [String: Any?], BatchRequestError)] = [
            ("Item", ["status": "x", "small": "big"],
             .invalidValue(index: nil, key: "small", error: .wrongValueType(entity: "Item", key: "small", expected: .integer16, found: "String"))),
            ("Item", ["number": nil], .missingValue(index: nil, entity: "Item", key: "number")),
            ("Item", ["colour": 1], .unknownKey(index: nil, entity: "Item", key: "colour")),
            ("Book", ["shelf": nil], .notAnAttribute(index: nil, entity: "Book", key: "shelf")),
            ("Item", [:], .noPropertiesToUpdate(entity: "Item")),
        ]
        for (entity, values, expected) in cases {
            let error = try #require(throws: BatchRequestError.self) {
                try context.execute(BatchUpdateRequest(entityName: entity, propertiesToUpdate: values))
            }
            #expect(error == expected)
        }
        // Two coupons set to one code break the constraint: the store refuses, as it refuses a save.
        let conflict = try #require(throws: StoreError.self) {
            try context.execute(BatchUpdateRequest(entityName: "Coupon", propertiesToUpdate: ["code": "SAME"]))
        }
        guard case .constraintConflict(let conflicts) = conflict else {
            Issue.record("expected a constraint conflict, got \(conflict)")
            return
        }
        #expect(conflicts.first?.entityName == "Coupon")
        let fresh = context.freshContext()
        #expect(try fresh.fetch(sortedRequest("Item", by: "number")).map { try $0.string("status") } == Array(repeating: "new", count: 5))
        #expect(try fresh.strings(sortedRequest("Coupon", by: "code"), key: "code") == ["A", "B"])
    }

    // MARK: Deletes

    /// Two shelves of books (one a comic) with tags, notes and a loan, saved.
    private struct Library {
        let context: ManagedObjectContext
        let ids: [String: ManagedObjectID]
        func id(_ name: String) -> ManagedObjectID { ids[name] ?? .temporary(entityName: "Missing") }
    }

    private func library(_ store: StoreUnderTest, coordinator: PersistentStoreCoordinator? = nil) throws -> Library {
        let context = try coordinator.map { ManagedObjectContext(coordinator: $0) } ?? store.makeContext(model: Self.model())
        let fiction = try context.insert("Shelf", ["name": "fiction"])
        let history = try context.insert("Shelf", ["name": "history"])
        let red = try context.insert("Tag", ["name": "red"])
        let blue = try context.insert("Tag", ["name": "blue"])
        var objects: [String: ManagedObject] = ["fiction": fiction, "history": history, "red": red, "blue": blue]
        for (name, shelf, entity) in [("emma", fiction, "Book"), ("tintin", fiction, "Comic"), ("dune", fiction, "Book"),
                                      ("rome", history, "Book"), ("troy", history, "Book")] {
            let book = try context.insert(entity, ["title": name, "year": name.count])
            try shelf.add(book, to: "books")
            objects[name] = book
        }
        for book in ["emma", "tintin", "rome"] { try objects[book].map { try red.add($0, to: "books") } }
        for book in ["emma", "troy"] { try objects[book].map { try blue.add($0, to: "books") } }
        for (note, book) in [("emma-1", "emma"), ("emma-2", "emma"), ("rome-1", "rome")] {
            objects[note] = try context.insert("Note", ["text": note, "book": objects[book]])
        }
        objects["loan"] = try context.insert("Loan", ["who": "ann", "book": objects["troy"]])
        try context.save()
        return Library(context: context, ids: objects.mapValues(\.objectID))
    }

    private func titles(_ context: ManagedObjectContext) throws -> [String] {
        try context.strings(sortedRequest("Book", by: "title"), key: "title")
    }

    @Test("A delete with a predicate or a list of IDs removes just those objects and reports count or IDs",
          arguments: StoreUnderTest.all)
    func deleteSelected(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        let ids = try numbers(20, in: context)
        var byPredicate = BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Item", predicate: try ObjectPredicate(format: "small == 1")))
        byPredicate.resultType = .count
        #expect(try context.execute(byPredicate).count == 7)

        var byIDs = BatchDeleteRequest(objectIDs: [ids[1], ids[2], ids[0], ids[1]])   // ids[0] is gone already
        byIDs.resultType = .objectIDs
        let result = try context.execute(byIDs)
        #expect(result.objectIDs == [ids[1], ids[2]])
        #expect(result.changes == [ManagedObjectContext.deletedObjectsKey: [ids[1], ids[2]]])

        // A range deletes the first objects in the request's order.
        let oldest = FetchRequest(entityName: "Item", sortDescriptors: [ObjectSortDescriptor(key: "number", ascending: false)], fetchLimit: 3)
        #expect(try context.execute(BatchDeleteRequest(fetchRequest: oldest)).status)

        let reader = context.freshContext()
        let left = try reader.fetch(sortedRequest("Item", by: "number")).map { try $0.value(forKey: "number") as? Int32 ?? 0 }
        #expect(left == [5, 6, 8, 9, 11, 12, 14, 15])
        let temporary = ManagedObjectID.temporary(entityName: "Item")
        #expect(throws: BatchRequestError.temporaryObjectID(temporary)) {
            try context.execute(BatchDeleteRequest(objectIDs: [ids[4], temporary]))
        }
        #expect(try context.freshContext().count("Item") == 8)
    }

    @Test("A delete cascades (recursively), nullifies inverses, leaves join rows clean, and counts every object",
          arguments: StoreUnderTest.all)
    func deleteCascadeAndNullify(store: StoreUnderTest) throws {
        let library = try library(store)
        let context = library.context
        var request = BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Shelf", predicate: try ObjectPredicate(format: "name == 'fiction'")))
        request.resultType = .objectIDs
        let result = try context.execute(request)
        let deleted = try #require(result.objectIDs)
        #expect(deleted.first == library.id("fiction"))
        #expect(Set(deleted) == Set(["fiction", "emma", "tintin", "dune", "emma-1", "emma-2"].map(library.id)))
        #expect(result.count == 6)
        #expect(Set(result.changes[ManagedObjectContext.updatedObjectsKey] ?? []) == Set([library.id("red"), library.id("blue")]))

        let fresh = context.freshContext()
        #expect(try titles(fresh) == ["rome", "troy"])
        #expect(try fresh.strings(sortedRequest("Note", by: "text"), key: "text") == ["rome-1"])
        #expect(try fresh.count("Shelf") == 1)
        let red = try fresh.existingObject(with: library.id("red"))
        let blue = try fresh.existingObject(with: library.id("blue"))
        #expect(try red.sortedNames("books", nameKey: "title") == ["rome"])
        #expect(try blue.sortedNames("books", nameKey: "title") == ["troy"])

        // Deleting a book alone nullifies its shelf's ordered list and its tags.
        let rome = library.id("rome")
        #expect(try context.execute(BatchDeleteRequest(objectIDs: [rome])).status)
        let after = context.freshContext()
        let history = try after.existingObject(with: library.id("history"))
        #expect(try history.list("books").map { try $0.string("title") } == ["troy"])
        #expect(try after.existingObject(with: library.id("red")).objects("books").isEmpty)
        #expect(try after.count("Note") == 0, "rome's note went with it")
        #expect(try after.count("Tag") == 2)
    }

    @Test("A deny rule with a destination left refuses the whole delete; deleting the destination too is allowed",
          arguments: StoreUnderTest.all)
    func deleteDenied(store: StoreUnderTest) throws {
        let library = try library(store)
        let context = library.context
        // The history shelf cascades to troy, whose loan denies.
        let error = try #require(throws: BatchRequestError.self) {
            try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Shelf")))
        }
        #expect(error == .deleteDenied(objectID: library.id("troy"), relationship: "loans", destinationCount: 1))
        #expect(error.description.contains("loans") && error.description.contains(library.id("troy").description))

        let fresh = context.freshContext()
        #expect(try fresh.count("Shelf") == 2)
        #expect(try titles(fresh) == ["dune", "emma", "rome", "tintin", "troy"])
        #expect(try fresh.count("Note") == 3)
        #expect(try fresh.existingObject(with: library.id("red")).objects("books").count == 3)
        #expect(try fresh.existingObject(with: library.id("fiction")).list("books").map { try $0.string("title") } == ["emma", "tintin", "dune"])

        var both = BatchDeleteRequest(objectIDs: [library.id("loan"), library.id("troy")])
        both.resultType = .count
        #expect(try context.execute(both).count == 2)
        #expect(try titles(context.freshContext()) == ["dune", "emma", "rome", "tintin"])
    }

    @Test("Merging a delete keeps deleted objects registered as deleted and drops them from loaded relationships",
          arguments: StoreUnderTest.all)
    func mergeDelete(store: StoreUnderTest) throws {
        let library = try library(store)
        let viewer = library.context.freshContext()
        let fiction = try viewer.existingObject(with: library.id("fiction"))
        let red = try viewer.existingObject(with: library.id("red"))
        let emma = try viewer.existingObject(with: library.id("emma"))
        #expect(try fiction.list("books").count == 3)
        #expect(try red.objects("books").count == 3)
        let child = ManagedObjectContext(parent: viewer)
        let childEmma = try child.existingObject(with: library.id("emma"))

        var request = BatchDeleteRequest(objectIDs: [library.id("emma")])
        request.resultType = .objectIDs
        let result = try library.context.execute(request)
        #expect(viewer.registeredObject(for: library.id("emma")) === emma, "nothing changes before the merge")
        #expect(!emma.isDeleted)

        try ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [child, viewer])
        #expect(viewer.registeredObject(for: library.id("emma")) === emma)
        #expect(emma.isDeleted && childEmma.isDeleted)
        #expect(try emma.string("title") == "emma", "the last values stay readable")
        #expect(try childEmma.string("title") == "emma")
        #expect(try titles(viewer) == ["dune", "rome", "tintin", "troy"])
        #expect(try titles(child) == ["dune", "rome", "tintin", "troy"])
        #expect(try fiction.list("books").map { try $0.string("title") } == ["tintin", "dune"])
        #expect(try red.sortedNames("books", nameKey: "title") == ["rome", "tintin"])
        #expect(!viewer.hasChanges)
        // Red's version moved with the delete; after the merge the viewer saves over it.
        try red.setValue("crimson", forKey: "name")
        try viewer.save()
        let checker = library.context.freshContext()
        #expect(try checker.existingObject(with: library.id("red")).string("name") == "crimson")
    }

    @Test("A store of one's own gets batch requests through the protocol's default, with the same outcome",
          arguments: StoreUnderTest.all)
    func genericDefault(store: StoreUnderTest) throws {
        let (coordinator, counting) = try CountingStore.coordinator(store, model: Self.model())
        let library = try library(store, coordinator: coordinator)
        let context = library.context
        var insert = BatchInsertRequest(entityName: "Item", objects: (0..<50).map { Self.item($0).given })
        insert.resultType = .objectIDs
        #expect(try context.execute(insert).objectIDs?.compactMap(\.primaryKey) == Array(1...50))
        let items = try storedItems(context.freshContext())
        #expect((0..<50).allSatisfy { items[$0] == Self.item($0).stored })

        var update = BatchUpdateRequest(entityName: "Book", predicate: try ObjectPredicate(format: "shelf.name == 'history'"),
                                        propertiesToUpdate: ["year": ObjectExpression.keyPath("year")])
        update.propertiesToUpdate["title"] = "same"
        update.resultType = .count
        #expect(try context.execute(update).count == 2)

        counting.reset()
        let error = try #require(throws: BatchRequestError.self) {
            try context.execute(BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Shelf")))
        }
        #expect(error == .deleteDenied(objectID: library.id("troy"), relationship: "loans", destinationCount: 1))
        #expect(counting.reads > 0, "the default reads through the store's requirements")

        var delete = BatchDeleteRequest(fetchRequest: FetchRequest(entityName: "Shelf", predicate: try ObjectPredicate(format: "name == 'fiction'")))
        delete.resultType = .objectIDs
        let result = try context.execute(delete)
        #expect(Set(result.objectIDs ?? []) == Set(["fiction", "emma", "tintin", "dune", "emma-1", "emma-2"].map(library.id)))
        let fresh = context.freshContext()
        #expect(try titles(fresh) == ["same", "same"])
        #expect(try fresh.existingObject(with: library.id("red")).sortedNames("books", nameKey: "title") == ["same"])
        #expect(try fresh.count("Note") == 1)
    }

    @Test("A batch runs on a background context; its result crosses to another context and merges there",
          arguments: StoreUnderTest.all)
    func backgroundBatch(store: StoreUnderTest) async throws {
        let (coordinator, _) = try store.makeCoordinator(model: Self.model())
        let background = BackgroundContext(coordinator: coordinator)
        let inserted = try await background.perform { context in
            var request = BatchInsertRequest(entityName: "Item", objects: [["number": 1], ["number": 2]])
            request.resultType = .objectIDs
            return try context.execute(request)
        }
        let context = ManagedObjectContext(coordinator: coordinator)
        let first = try context.existingObject(with: try #require(inserted.objectIDs?.first))
        #expect(try first.string("status") == "new")
        let updated = try await background.perform { context in
            var request = BatchUpdateRequest(entityName: "Item", propertiesToUpdate: ["status": "done"])
            request.resultType = .objectIDs
            return try context.execute(request)
        }
        try ManagedObjectContext.mergeChanges(fromRemoteContextSave: updated.changes, into: [context])
        #expect(try first.string("status") == "done")
    }
}
