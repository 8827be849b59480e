import Foundation
import Strata
import StrataTestSupport
import Testing

/// Transformable attributes that name no transformer: Core Data's default, keyed archives of
/// Foundation values, on every store.
@Suite("Transformable attributes without a transformer name")
struct TransformableDefaultTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Note") {
                Attribute("title", .string)
                Attribute("info", .transformable)
                Attribute("secure", .transformable, valueTransformerName: "NSSecureUnarchiveFromData")
            }
        }
    }

    @Test("Foundation values are archived and read back as Swift values", arguments: StoreUnderTest.all)
    func roundTrip(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        let id = UUID()
        let when = Date(timeIntervalSinceReferenceDate: 1_000)
        try context.insert("Note", ["title": "a", "info": ["tags": ["x", "y"], "id": id, "when": when, "n": 3] as [String: Any],
                                    "secure": URL(string: "https://example.org")!])
        try context.insert("Note", ["title": "b", "info": Data([1, 2, 3])])
        try context.save()
        let fresh = context.freshContext()
        let notes = try fresh.fetch(sortedRequest("Note", by: "title"))
        let info = try #require(try notes[0].value(forKey: "info") as? [String: Any])
        #expect(info["tags"] as? [String] == ["x", "y"] && info["id"] as? UUID == id && info["when"] as? Date == when && info["n"] as? Int == 3)
        #expect(try notes[0].value(forKey: "secure") as? URL == URL(string: "https://example.org"))
        #expect(try notes[1].value(forKey: "info") as? Data == Data([1, 2, 3]))
    }

    @Test("A value no keyed archive holds is refused, naming the attribute", arguments: [StoreUnderTest.all[0]])
    func refused(store: StoreUnderTest) throws {
        let context = try store.makeContext(model: Self.model())
        let note = try context.insertNewObject(forEntityName: "Note")
        #expect {
            try note.setValue(NSObject(), forKey: "info")
        } throws: { "\($0)".contains("info") }
    }

    @Test("Values Core Data archived in an SQLite store read back; Strata's bytes are such archives")
    func appleArchives() throws {
        let (_, store, url, context) = try StoreUnderTest.all.first { $0.type == .sqlite }!.makeFileStore(model: Self.model())
        try context.insert("Note", ["title": "mine", "info": ["k": 1] as [String: Any]])
        try context.insert("Note", ["title": "apple"])
        try context.save()
        // What Core Data writes: NSKeyedArchiver's archive of an NSDictionary (Foundation's own archiver here).
        let archived = try NSKeyedArchiver.archivedData(withRootObject: ["name": "Zoë", "sizes": [1, 2]] as NSDictionary,
                                                        requiringSecureCoding: true)
        let hex = archived.map { String(format: "%02X", $0) }.joined()
        _ = try SQLiteShell.rows(url, "UPDATE ZNOTE SET ZINFO = X'\(hex)' WHERE ZTITLE = 'apple'")
        let stored = try SQLiteShell.rows(url, "SELECT hex(ZINFO) FROM ZNOTE WHERE ZTITLE = 'mine'")
        _ = store
        let reader = ManagedObjectContext(coordinator: context.persistentStoreCoordinator)
        let apple = try #require(try reader.fetch(FetchRequest(entityName: "Note", predicate: ObjectPredicate(format: "title == 'apple'"))).first)
        let value = try #require(try apple.value(forKey: "info") as? [String: Any])
        #expect(value["name"] as? String == "Zoë" && value["sizes"] as? [Int] == [1, 2])
        // Strata's own bytes: Foundation unarchives them with secure coding.
        let bytes = try #require(stored.first)
        var data = Data()
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let next = bytes.index(index, offsetBy: 2)
            data.append(UInt8(bytes[index..<next], radix: 16)!)
            index = next
        }
        let back = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSDictionary.self, NSString.self, NSNumber.self], from: data)
        #expect((back as? [String: Int]) == ["k": 1])
    }
}
