import Foundation
import StrataCore
import StrataModelFiles
@testable import StrataMigration
import StrataTestSupport
import Testing

/// Damaged and hand-edited mapping models: a typed error that names the file and the object,
/// never a crash.
@Suite("Mapping model errors and fields no fixture fills")
struct MappingModelErrorTests {
    static let coreStore = "JohnEstropia__CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.V2.FromV1.xcmappingmodel"

    /// CoreStore's V1 → V2 `xcmapping.xml`, as text.
    static func baseText() throws -> String {
        try String(contentsOf: MappingFixtures.url(coreStore).appending(path: "xcmapping.xml"), encoding: .utf8)
    }

    /// Writes `text` as the `xcmapping.xml` of a new bundle and returns the bundle.
    static func bundle(_ text: String) throws -> URL {
        let bundle = try TemporaryFolder.make().appending(path: "Edited.xcmappingmodel")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: bundle.appending(path: "xcmapping.xml"))
        return bundle
    }

    static func loadError(_ url: URL) -> MappingModelError? {
        do {
            _ = try MappingModel.load(at: url)
            return nil
        } catch {
            return error
        }
    }

    /// The text with the first match of `old` replaced.
    static func replacing(_ old: String, with new: String, in text: String) throws -> String {
        let range = try #require(text.range(of: old), "\(old) not found")
        return text.replacingCharacters(in: range, with: new)
    }

    @Test("A missing bundle, and a folder without xcmapping.xml, are .unreadable naming the file")
    func missing() throws {
        let folder = try TemporaryFolder.make()
        let missing = folder.appending(path: "Nothing.xcmappingmodel")
        guard case .unreadable(let file, _)? = Self.loadError(missing) else { Issue.record("not .unreadable"); return }
        #expect(file == missing.path)

        let empty = folder.appending(path: "Empty.xcmappingmodel")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        guard case .unreadable(let emptyFile, _)? = Self.loadError(empty) else { Issue.record("not .unreadable"); return }
        #expect(emptyFile == empty.appending(path: "xcmapping.xml").path)
        #expect(Self.loadError(empty)?.description.contains("xcmapping.xml") == true)
    }

    @Test("Truncated XML and an unknown entity are .unreadableStore, naming the file and the line")
    func damagedStore() throws {
        let text = try Self.baseText()
        let truncated = try Self.bundle(String(text.prefix(text.count / 2)))
        guard case .unreadableStore(let file, .corruptStore(let storeFile, _, _))? = Self.loadError(truncated) else {
            Issue.record("not .unreadableStore(.corruptStore): \(String(describing: Self.loadError(truncated)))"); return
        }
        #expect(file.hasSuffix("Edited.xcmappingmodel/xcmapping.xml") && storeFile == file)

        let unknown = try Self.bundle(Self.replacing("<object type=\"XDDEVATTRIBUTEMAPPING\"", with: "<object type=\"XDDEVSOMETHINGELSE\"", in: text))
        guard case .unreadableStore(_, .corruptStore(_, _, let reason))? = Self.loadError(unknown) else {
            Issue.record("not .unreadableStore(.corruptStore): \(String(describing: Self.loadError(unknown)))"); return
        }
        #expect(reason.contains("XDDEVSOMETHINGELSE"))
        #expect(Self.loadError(unknown)?.description.contains("line") == true)
    }

    static let emptyStore = """
        <?xml version="1.0" standalone="yes"?>
        <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">
        <database>
            <databaseInfo>
                <version>134481920</version>
                <UUID>8E3A4D2C-6E60-4C8C-9A3B-0B3C9E1D5F10</UUID>
                <nextObjectID>105</nextObjectID>
                <metadata><plist version="1.0"><dict></dict></plist></metadata>
            </databaseInfo>
        OBJECTS
        </database>
        """

    static func mappingModelObject(_ id: Int) -> String {
        """
            <object type="XDDEVMAPPINGMODEL" id="z\(id)">
                <attribute name="sourcemodelpath" type="string">A.xcdatamodeld/A.xcdatamodel</attribute>
                <attribute name="sourcemodeldata" type="binary">AA==</attribute>
                <attribute name="destinationmodelpath" type="string">A.xcdatamodeld/A 2.xcdatamodel</attribute>
                <attribute name="destinationmodeldata" type="binary">AA==</attribute>
                <relationship name="entitymappings" type="0/0" destination="XDDEVENTITYMAPPING"></relationship>
            </object>
        """
    }

    @Test("A store without an XDDevMappingModel, or with two, is .invalidDocument")
    func notAMappingModel() throws {
        let none = Self.emptyStore.replacingOccurrences(of: "OBJECTS", with: """
                <object type="XDDEVATTRIBUTEMAPPING" id="z102">
                    <attribute name="name" type="string">orphan</attribute>
                    <relationship name="entitymapping" type="1/1" destination="XDDEVENTITYMAPPING"></relationship>
                </object>
            """)
        guard case .invalidDocument(let file, let reason)? = Self.loadError(try Self.bundle(none)) else {
            Issue.record("not .invalidDocument"); return
        }
        #expect(file.hasSuffix("xcmapping.xml") && reason.contains("XDDevMappingModel"))

        let two = Self.emptyStore.replacingOccurrences(of: "OBJECTS", with: Self.mappingModelObject(102) + "\n" + Self.mappingModelObject(103))
        guard case .invalidDocument(_, let twoReason)? = Self.loadError(try Self.bundle(two)) else {
            Issue.record("not .invalidDocument"); return
        }
        #expect(twoReason.contains("2"))

        // One mapping model with no entity mappings is a valid, empty mapping model.
        let empty = Self.emptyStore.replacingOccurrences(of: "OBJECTS", with: Self.mappingModelObject(102))
        let model = try MappingModel.load(at: try Self.bundle(empty))
        #expect(model.entityMappings.isEmpty && model.sourceModelPath == "A.xcdatamodeld/A.xcdatamodel")
    }

    @Test("An archive that is not an expression, and an unknown mapping type, are .invalidObject naming the object")
    func badObjects() throws {
        let text = try Self.baseText()
        let archiveStart = try #require(text.range(of: "<attribute name=\"valueexpressiondata\" type=\"binary\">"))
        let archiveEnd = try #require(text[archiveStart.upperBound...].range(of: "</attribute>"))
        let garbage = text.replacingCharacters(in: archiveStart.upperBound..<archiveEnd.lowerBound,
                                               with: Data("not a property list at all".utf8).base64EncodedString())
        guard case .invalidObject(let file, let object, let reason)? = Self.loadError(try Self.bundle(garbage)) else {
            Issue.record("not .invalidObject"); return
        }
        #expect(file.hasSuffix("xcmapping.xml"))
        #expect(object == "XDDevAttributeMapping z104")
        #expect(reason.contains("valueExpressionData"))

        let badType = try Self.replacing(">Undefined<", with: ">Sideways<", in: text)
        guard case .invalidObject(_, let typeObject, let typeReason)? = Self.loadError(try Self.bundle(badType)) else {
            Issue.record("not .invalidObject"); return
        }
        #expect(typeObject == "XDDevEntityMapping z102" && typeReason.contains("Sideways"))
    }

    @Test("Filter predicate, user info and a custom source expression are read when a file has them")
    func unusedFields() throws {
        let text = try Self.baseText()
        // An expression archive of the file itself, reused as the custom source fetch.
        let archiveStart = try #require(text.range(of: "<attribute name=\"valueexpressiondata\" type=\"binary\">"))
        let archiveEnd = try #require(text[archiveStart.upperBound...].range(of: "</attribute>"))
        let archive = text[archiveStart.upperBound..<archiveEnd.lowerBound]
        let userInfo = try NSKeyedArchiver.archivedData(
            withRootObject: NSDictionary(dictionary: ["why": "renamed", "n": NSNumber(value: 3)]), requiringSecureCoding: false)
        let edited = try Self.replacing(
            "<attribute name=\"autogenerateexpression\" type=\"bool\">1</attribute>",
            with: """
                <attribute name="autogenerateexpression" type="bool">0</attribute>
                        <attribute name="sourcefilterpredicatestring" type="string">dnaCode != nil</attribute>
                        <attribute name="sourceexpressiondata" type="binary">\(archive)</attribute>
                        <attribute name="userinfodata" type="binary">\(userInfo.base64EncodedString())</attribute>
                """,
            in: text)
        let creature = try #require(try MappingModel.load(at: Self.bundle(edited)).entityMappings.first)
        #expect(creature.filterPredicate == "dnaCode != nil")
        #expect(!creature.generatesSourceExpression)
        #expect(creature.sourceExpression?.format == "$source.numberOfFlagella")
        #expect(creature.userInfo == ["why": .string("renamed"), "n": .integer(3)])
    }

    @Test("Resolving against the wrong model versions is .mismatch naming the entity mapping")
    func wrongModels() throws {
        let moody = "objcio__core-data/Migrations/Migrations/"
        let mapping = try MappingModel.load(at: MappingFixtures.url(moody + "Moody 4-Moody 5.xcmappingmodel"))
        let moody2 = try MappingFixtures.model(recordedPath: "Moody.xcdatamodeld/Moody 2.xcdatamodel", besideMappingModel: moody)
        let moody3 = try MappingFixtures.model(recordedPath: "Moody.xcdatamodeld/Moody 3.xcdatamodel", besideMappingModel: moody)
        let moody5 = try MappingFixtures.model(recordedPath: "Moody.xcdatamodeld/Moody 5.xcdatamodel", besideMappingModel: moody)
        do {
            _ = try mapping.resolved(source: moody2, destination: moody3)
            Issue.record("resolved against Moody 2 → 3")
        } catch {
            guard case .mismatch(let file, let entityMapping, let reason) = error else { Issue.record("\(error)"); return }
            #expect(file == mapping.file && entityMapping == "CountryToCountry" && reason.contains("isoContinent"))
        }
        let later = try MappingModel.load(at: MappingFixtures.url(moody + "Moody 5-Moody 6.xcmappingmodel"))
        #expect(throws: MappingModelError.self) { try later.resolved(source: moody5, destination: moody5) }
    }

    // MARK: Binary property lists and keyed archives

    /// A binary property list of `objects` (each already encoded), top object 0, one-byte
    /// offsets and references.
    static func bplist(_ objects: [[UInt8]], top: UInt8 = 0) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)]
        bytes += [0, 0, 0, 0, 0, 0, 0, top]
        bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        return Data(bytes)
    }

    @Test("Hostile binary property lists: cycles, shared objects, bad references, truncation")
    func hostilePropertyLists() throws {
        // An array that holds itself.
        #expect(throws: PlistError.self) { try BinaryPropertyList.parse(Self.bplist([[0xA1, 0]])) }
        // Twenty arrays, each holding the next one twice: 2^20 values from a few bytes.
        var chain: [[UInt8]] = (0..<20).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        chain.append([0x09])
        #expect(throws: PlistError.self) { try BinaryPropertyList.parse(Self.bplist(chain)) }
        // A reference past the last object, a string longer than the file, a bad marker.
        #expect(throws: PlistError.self) { try BinaryPropertyList.parse(Self.bplist([[0xA1, 7]])) }
        #expect(throws: PlistError.self) { try BinaryPropertyList.parse(Self.bplist([[0x5E]])) }
        #expect(throws: PlistError.self) { try BinaryPropertyList.parse(Self.bplist([[0x0C]])) }
        #expect(throws: PlistError.self) { try BinaryPropertyList.parse(Data("bplist00".utf8)) }
        // Well-formed: a dictionary with a string and a Boolean.
        let fine = try BinaryPropertyList.parse(Self.bplist([[0xD1, 1, 2], [0x51, 0x6B], [0x09]]))
        #expect(fine == .dictionary(["k": .bool(true)]))
    }

    @Test("Randomly damaged expression archives throw or read; nothing crashes")
    func damagedArchives() throws {
        let text = try Self.baseText()
        let archiveStart = try #require(text.range(of: "<attribute name=\"valueexpressiondata\" type=\"binary\">"))
        let archiveEnd = try #require(text[archiveStart.upperBound...].range(of: "</attribute>"))
        let archive = try #require(Data(base64Encoded: String(text[archiveStart.upperBound..<archiveEnd.lowerBound]),
                                        options: .ignoreUnknownCharacters))
        #expect(try KeyedArchive(archive).expression().format == "$source.numberOfFlagella")

        var random = SplitMix64(seed: 0x5EED_0007)
        var read = 0
        for _ in 0..<3000 {
            var bytes = Array(archive)
            switch random.next() % 3 {
            case 0:
                for _ in 0..<(1 + random.next() % 4) {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
            case 1:
                bytes.removeLast(Int(random.next() % UInt64(bytes.count)))
            default:
                let index = Int(random.next() % UInt64(bytes.count))
                bytes[index] ^= 1 << (random.next() % 8)
            }
            if (try? KeyedArchive(Data(bytes)).expression()) != nil { read += 1 }
        }
        #expect(read < 3000)
    }
}
