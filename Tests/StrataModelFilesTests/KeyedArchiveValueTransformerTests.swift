import Foundation
import StrataCore
import StrataModelFiles
import Testing

/// Core Data's default transformer (`NSSecureUnarchiveFromData`): values of the common
/// Foundation types as `NSKeyedArchiver` archives, checked against Foundation's own archiver.
@Suite("Keyed-archive value transformer")
struct KeyedArchiveValueTransformerTests {
    private let transformer = KeyedArchiveValueTransformer()
    private static let allowed: [AnyClass] = [NSString.self, NSNumber.self, NSDate.self, NSData.self, NSURL.self, NSUUID.self,
                                              NSArray.self, NSDictionary.self, NSSet.self]
    private static let uuid = UUID(uuidString: "0F0E0D0C-0B0A-0908-0706-050403020100")!
    private static let date = Date(timeIntervalSinceReferenceDate: 123_456.25)

    @Test("Archives NSKeyedArchiver wrote read back as Swift values")
    func readsFoundationArchives() throws {
        func read(_ value: Any) throws -> Any {
            try transformer.reverseTransformedValue(try NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: true))
        }
        #expect(try read("héllo") as? String == "héllo")
        #expect(try read(42) as? Int == 42)
        #expect(try read(-2.5) as? Double == -2.5)
        #expect(try read(Self.date) as? Date == Self.date)
        #expect(try read(Data([0, 1, 255])) as? Data == Data([0, 1, 255]))
        #expect(try read(URL(string: "https://example.org/a?b=c")!) as? URL == URL(string: "https://example.org/a?b=c"))
        #expect(try read(Self.uuid) as? UUID == Self.uuid)
        let array = try #require(try read(["a", 1, ["b"]] as [Any]) as? [Any])
        #expect(array.count == 3 && array[0] as? String == "a" && array[1] as? Int == 1 && (array[2] as? [Any])?.first as? String == "b")
        let dictionary = try #require(try read(["name": "x", "count": 3] as [String: Any]) as? [String: Any])
        #expect(dictionary["name"] as? String == "x" && dictionary["count"] as? Int == 3 && dictionary.count == 2)
        #expect(try read(NSSet(array: [1, 2, 3])) as? Set<AnyHashable> == Set([1, 2, 3] as [AnyHashable]))
    }

    @Test("What Strata archives NSKeyedUnarchiver reads with secure coding")
    func writesFoundationArchives() throws {
        func back(_ value: Any) throws -> Any? {
            try NSKeyedUnarchiver.unarchivedObject(ofClasses: Self.allowed, from: transformer.transformedValue(value))
        }
        #expect(try back("héllo") as? String == "héllo")
        #expect(try back(42) as? Int == 42)
        #expect(try back(true) as? Bool == true)
        #expect(try back(Self.date) as? Date == Self.date)
        #expect(try back(Data([9, 8])) as? Data == Data([9, 8]))
        #expect(try back(URL(string: "file:///tmp/x")!) as? URL == URL(string: "file:///tmp/x"))
        #expect(try back(Self.uuid) as? UUID == Self.uuid)
        #expect(try back(["a", "b"]) as? [String] == ["a", "b"])
        #expect(try back(["k": [1, 2]] as [String: Any]) as? [String: [Int]] == ["k": [1, 2]])
        #expect(try back(Set(["x", "y"])) as? Set<String> == ["x", "y"])
        // The bytes are a binary property list holding an NSKeyedArchiver archive.
        let data = try transformer.transformedValue(["a": 1])
        let top = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(data.starts(with: Array("bplist00".utf8)) && top["$archiver"] as? String == "NSKeyedArchiver")
    }

    @Test("A round trip through Strata alone keeps every value")
    func roundTrip() throws {
        let value: [String: Any] = ["s": "t", "n": 7, "d": Self.date, "u": Self.uuid, "l": [1.5, 2.5], "set": Set([1, 2])]
        let back = try #require(try transformer.reverseTransformedValue(transformer.transformedValue(value)) as? [String: Any])
        #expect(back["s"] as? String == "t" && back["n"] as? Int == 7 && back["d"] as? Date == Self.date)
        #expect(back["u"] as? UUID == Self.uuid && back["l"] as? [Double] == [1.5, 2.5])
        #expect(back["set"] as? Set<AnyHashable> == Set([1, 2] as [AnyHashable]))
    }

    @Test("A class secure unarchiving does not allow is refused, named")
    func refusesOtherClasses() throws {
        // The cover Core Data archived in CoreDataPlus's store: an app class.
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("AppleStoreTests/Fixtures/alemar11__CoreDataPlus/Tests/Resources/SampleModel2/Fixtures/SampleModel2_V2.sqlite")
        // Read from a copy: sqlite3 would fold the fixture's write-ahead log into it on closing.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keyed-archive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("store.sqlite")
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: fixture.path + suffix) {
            try FileManager.default.copyItem(atPath: fixture.path + suffix, toPath: copy.path + suffix)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", copy.path, "SELECT hex(ZFRONTCOVER) FROM ZBOOK WHERE ZFRONTCOVER IS NOT NULL LIMIT 1"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let hex = Array(output.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index + 1 < hex.count {
            bytes.append(UInt8(String(decoding: hex[index...index + 1], as: UTF8.self), radix: 16) ?? 0)
            index += 2
        }
        #expect(bytes.starts(with: Array("bplist00".utf8)))
        #expect {
            _ = try transformer.reverseTransformedValue(Data(bytes))
        } throws: { "\($0)".contains("CoreDataPlus_Tests.Cover") }
        #expect(throws: KeyedArchiveValueTransformer.ArchiveError.self) { _ = try transformer.reverseTransformedValue(Data("bplist00junk".utf8)) }
        #expect(throws: KeyedArchiveValueTransformer.ArchiveError.self) { _ = try transformer.transformedValue(NSObject()) }
    }
}
