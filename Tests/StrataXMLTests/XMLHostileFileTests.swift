import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@_spi(StoreImplementation) import StrataTestSupport
@testable @_spi(StoreImplementation) import StrataXML
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What decoding a document did.
enum XMLOutcome {
    case decoded(StoreImage)
    case corrupt(file: String, offset: Int?, reason: String)
    /// A value its attribute cannot hold, or an entity the model lacks: typed errors of their own.
    case refused(file: String, error: StoreError)
    case otherError(any Error)

    init(_ body: () throws -> StoreImage) {
        do {
            self = .decoded(try body())
        } catch let StoreError.corruptStore(file, offset, reason) {
            self = .corrupt(file: file, offset: offset, reason: reason)
        } catch let error as StoreError {
            switch error {
            case .invalidStoredValue(let problem) where problem.position?.hasPrefix("line ") == true:
                self = .refused(file: problem.file, error: error)
            case .incompatibleModel(let file, _):
                self = .refused(file: file, error: error)
            default:
                self = .otherError(error)
            }
        } catch {
            self = .otherError(error)
        }
    }
}

/// A document built from the hand-written pets store by one edit, which a reader must refuse.
struct HostileDocument: Sendable, CustomTestStringConvertible {
    var name: String
    var data: Data
    var testDescription: String { name }

    init(_ name: String, data: Data) {
        self.name = name
        self.data = data
    }

    init(_ name: String, text: String) {
        self.init(name, data: Data(text.utf8))
    }

    /// The pets document with `target` replaced by `replacement` (the test checks that the
    /// document did change).
    init(_ name: String, replacing target: String, with replacement: String) {
        self.init(name, text: XMLFixture.pets.replacingOccurrences(of: target, with: replacement))
    }

    static let rex = #"<attribute name="name" type="string">Rex</attribute>"#
    static let fins = #"<attribute name="fins" type="int32">5</attribute>"#
    static let age = #"<attribute name="age" type="int16">30</attribute>"#
    /// The whole `<databaseInfo>` element of the pets document, with its indentation.
    static let info: String = {
        let start = XMLFixture.pets.range(of: "    <databaseInfo>")!.lowerBound
        let end = XMLFixture.pets.range(of: "</databaseInfo>\n")!.upperBound
        return String(XMLFixture.pets[start..<end])
    }()

    static let all: [HostileDocument] = [
        HostileDocument("unknown entity type", replacing: #"type="FISH""#, with: #"type="DRAGON""#),
        HostileDocument("object of an abstract entity", replacing: #"type="FISH""#, with: #"type="ANIMAL""#),
        HostileDocument("unknown property", replacing: fins, with: #"<attribute name="colour" type="string">red</attribute>"#),
        HostileDocument("relationship written as an attribute", replacing: fins,
                        with: #"<attribute name="owner" type="string">Ann</attribute>"#),
        HostileDocument("attribute written as a relationship", replacing: fins,
                        with: #"<relationship name="fins" type="1/1" destination="PERSON" idrefs="z102"></relationship>"#),
        HostileDocument("int16 holding abc", replacing: age, with: #"<attribute name="age" type="int16">abc</attribute>"#),
        HostileDocument("int16 holding 100000", replacing: age, with: #"<attribute name="age" type="int16">100000</attribute>"#),
        HostileDocument("int16 holding 2^64", replacing: age,
                        with: #"<attribute name="age" type="int16">18446744073709551616</attribute>"#),
        HostileDocument("bool holding maybe", replacing: rex, with: rex + #"<attribute name="vaccinated" type="bool">maybe</attribute>"#),
        HostileDocument("decimal holding abc", replacing: rex, with: rex + #"<attribute name="weight" type="decimal">abc</attribute>"#),
        HostileDocument("objectid that is not an object URI", replacing: rex,
                        with: rex + #"<attribute name="friend" type="objectid">not an id</attribute>"#),
        HostileDocument("base64 string that is not base64", replacing: rex,
                        with: #"<attribute name="name" type="string" encoding="base64">!!!</attribute>"#),
        HostileDocument("base64 string that is not UTF-8", replacing: rex,
                        with: #"<attribute name="name" type="string" encoding="base64">//4=</attribute>"#),
        HostileDocument("character reference to NUL", replacing: ">Rex<", with: ">R&#0;x<"),
        HostileDocument("undeclared entity reference", replacing: ">Rex<", with: ">R&nbsp;x<"),
        HostileDocument("to-one with two idrefs", replacing: #"<relationship name="owner" type="1/1" destination="PERSON" idrefs="z102"></relationship>"#,
                        with: #"<relationship name="owner" type="1/1" destination="PERSON" idrefs="z102 z102"></relationship>"#),
        HostileDocument("relationship to an object of the wrong entity", replacing: #"idrefs="z103 z104 z105""#,
                        with: #"idrefs="z103 z104 z102""#),
        HostileDocument("duplicate object id attribute", replacing: #"id="z104""#, with: #"id="z103""#),
        HostileDocument("object without an id", replacing: #" id="z105""#, with: ""),
        HostileDocument("duplicate object (same entity and key)", replacing: #"id="z104" pk="2""#, with: #"id="z104" pk="1""#),
        HostileDocument("two objects of one inheritance root share a primary key", replacing: #"id="z105" pk="3""#,
                        with: #"id="z105" pk="2""#),
        HostileDocument("primary key abc", replacing: #"pk="3""#, with: #"pk="abc""#),
        HostileDocument("primary key 0", replacing: #"pk="3""#, with: #"pk="0""#),
        HostileDocument("primary key -1", replacing: #"pk="3""#, with: #"pk="-1""#),
        HostileDocument("version abc", replacing: #"pk="3" version="1""#, with: #"pk="3" version="abc""#),
        HostileDocument("missing <databaseInfo>", replacing: info, with: ""),
        HostileDocument("<object> before <databaseInfo>", replacing: info,
                        with: #"    <object type="PERSON" id="z900" pk="9" version="1"></object>"# + "\n" + info),
        HostileDocument("<databaseInfo> without <UUID>", replacing: "<UUID>PETS-STORE</UUID>", with: ""),
        HostileDocument("<nextPrimaryKey> of an unknown entity", replacing: #"entity="ANIMAL""#, with: #"entity="DRAGON""#),
        HostileDocument("<nextPrimaryKey> of 0", replacing: #"entity="ANIMAL">4<"#, with: #"entity="ANIMAL">0<"#),
        HostileDocument("metadata that is not a dictionary", replacing: "<dict>", with: "<array><dict>"),
        HostileDocument("metadata integer holding abc", replacing: "<integer>7</integer>", with: "<integer>abc</integer>"),
        HostileDocument("unknown property-list element", replacing: "<integer>7</integer>", with: "<set>7</set>"),
        HostileDocument("metadata key without a value", replacing: "<key>n</key>\n                    <integer>7</integer>",
                        with: "<key>n</key>"),
        HostileDocument("unexpected element in <database>", replacing: "</database>", with: "<table/></database>"),
        HostileDocument("wrong root element", text: XMLFixture.pets
            .replacingOccurrences(of: "<database>", with: "<databank>")
            .replacingOccurrences(of: "</database>", with: "</databank>")),
        HostileDocument("mismatched end tag", replacing: "</object>\n</database>", with: "</objekt>\n</database>"),
        HostileDocument("missing </database>", replacing: "</database>", with: ""),
        HostileDocument("two root elements", replacing: "</database>", with: "</database><database></database>"),
        HostileDocument("non-UTF-8 bytes", data: {
            var data = Data(XMLFixture.pets.utf8)
            let range = data.range(of: Data(">Ann<".utf8))!
            data.replaceSubrange(range, with: Data([0x3E, 0x41, 0xFF, 0xFE, 0xC0, 0x3C]))
            return data
        }()),
        HostileDocument("overlong UTF-8 (0xC0 0xBC for <)", data: {
            var data = Data(XMLFixture.pets.utf8)
            let range = data.range(of: Data(">Ann<".utf8))!
            data.replaceSubrange(range, with: Data([0x3E, 0x41, 0xC0, 0xBC, 0x3C]))
            return data
        }()),
        HostileDocument("UTF-16 declared, UTF-8 given", replacing: #"<?xml version="1.0" standalone="yes"?>"#,
                        with: #"<?xml version="1.0" encoding="UTF-16" standalone="yes"?>"#),
        HostileDocument("empty file", text: ""),
        HostileDocument("whitespace only", text: "  \n\t "),
        HostileDocument("declaration only", text: #"<?xml version="1.0"?>"#),
        HostileDocument("an empty <database/>", text: #"<?xml version="1.0"?><database/>"#),
        HostileDocument("deeply nested elements in an object", replacing: rex,
                        with: #"<attribute name="name" type="string">"# + String(repeating: "<a>", count: 10_000)
                            + String(repeating: "</a>", count: 10_000) + "</attribute>"),
        HostileDocument("deeply nested property lists in the metadata", replacing: "<integer>7</integer>",
                        with: String(repeating: "<array>", count: 10_000) + String(repeating: "</array>", count: 10_000)),
        HostileDocument("deeply nested elements at the top", replacing: "</database>",
                        with: String(repeating: "<x>", count: 100_000) + String(repeating: "</x>", count: 100_000) + "</database>"),
        HostileDocument("billion laughs", text: billionLaughs),
        HostileDocument("billion laughs in UTF-16", data: utf16(billionLaughs)),
        HostileDocument("external entity", text: externalEntity),
        HostileDocument("external entity in UTF-16", data: utf16(externalEntity)),
        HostileDocument("external parameter entity", text: """
            <?xml version="1.0"?>
            <!DOCTYPE database [<!ENTITY % remote SYSTEM "file:///etc/passwd"> %remote;]>
            <database><databaseInfo><UUID>X</UUID></databaseInfo></database>
            """),
        HostileDocument("entity in an attribute value", text: XMLFixture.pets
            .replacingOccurrences(of: "<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">",
                                  with: "<!DOCTYPE database [<!ENTITY t \"PET\">]>")
            .replacingOccurrences(of: #"type="FISH""#, with: #"type="&t;""#)),
    ]

    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE database [
          <!ENTITY lol "lol">
          <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
          <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
          <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
          <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
          <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
          <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
          <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
          <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
        ]>
        <database>
            <databaseInfo><UUID>&lol9;</UUID></databaseInfo>
            <object type="PERSON" id="z102" pk="1"><attribute name="name" type="string">&lol9;</attribute></object>
        </database>
        """

    static let externalEntity = """
        <?xml version="1.0"?>
        <!DOCTYPE database [<!ENTITY x SYSTEM "file:///etc/passwd">]>
        <database>
            <databaseInfo><UUID>&x;</UUID></databaseInfo>
            <object type="PERSON" id="z102" pk="1"><attribute name="name" type="string">&x;</attribute></object>
        </database>
        """

    /// `text` as UTF-16 (little-endian, with a byte-order mark), its declaration saying so.
    static func utf16(_ text: String) -> Data {
        let declared = text.replacingOccurrences(of: #"<?xml version="1.0"?>"#, with: #"<?xml version="1.0" encoding="UTF-16"?>"#)
        var data = Data([0xFF, 0xFE])
        for unit in declared.utf16 { data.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        return data
    }
}

@Suite("XML store: hostile files", .timeLimit(.minutes(2)))
struct XMLHostileFileTests {
    static let path = "/hostile/pets.xml"
    let model: ManagedObjectModel

    init() throws {
        model = try PetsModel.make()
    }

    private func decode(_ data: Data, file: String = Self.path) -> XMLOutcome {
        XMLOutcome { try XMLFixture.decode(data, file: file, model: model) }
    }

    /// What is wrong with an outcome that should be a `corruptStore` naming the file and a
    /// place (a line, or an offset); nil when it is as it should be.
    private func problem(_ outcome: XMLOutcome) -> String? {
        switch outcome {
        case .decoded: return "decoded without an error"
        case .otherError(let error): return "threw \(error), not StoreError.corruptStore"
        case .refused(let file, _): return file == Self.path ? nil : "named the file \(file)"
        case let .corrupt(file, offset, reason):
            if file != Self.path { return "named the file \(file)" }
            if offset == nil, !reason.hasPrefix("line ") { return "names no line or offset: \(reason)" }
            return nil
        }
    }

    @Test("the hand-written pets document is valid")
    func baseline() throws {
        guard case .decoded(let image) = decode(Data(XMLFixture.pets.utf8)) else {
            Issue.record("the pets document does not decode")
            return
        }
        #expect(Identical.differences(PetsModel.image(), image).isEmpty)
    }

    @Test("a dangling idref reads as if it were not there and is reported")
    func danglingIdref() throws {
        var text = XMLFixture.pets.replacingOccurrences(of: #"idrefs="z103 z104 z105""#, with: #"idrefs="z103 z999 z105""#)
        // Tom (z104) names a missing owner.
        let tomStart = try #require(text.range(of: ">Tom<"))
        let tomOwner = try #require(text.range(of: #"idrefs="z102""#, range: tomStart.upperBound..<text.endIndex))
        text.replaceSubrange(tomOwner, with: #"idrefs="z998""#)
        guard case .decoded(let image) = decode(Data(text.utf8)) else {
            Issue.record("a dangling idref stopped the reading")
            return
        }
        let expected = PetsModel.image()
        let ann = ManagedObjectID(entityName: "Person", storeIdentifier: expected.identifier, primaryKey: 1)
        let tom = ManagedObjectID(entityName: "Pet", storeIdentifier: expected.identifier, primaryKey: 2)
        #expect(image.objects.count == expected.objects.count, "every object is read")
        #expect(image.objects[ann]?.toMany["pets"] == expected.objects[ann]?.toMany["pets"]?.filter { $0 != tom })
        #expect(image.objects[tom]?.toOne["owner"] == nil, "the dangling to-one reads as nil")
        #expect(image.danglingReferences == [
            DanglingReference(source: ann, relationship: "pets", destinationEntityName: "Animal", destinationName: "z999"),
            DanglingReference(source: tom, relationship: "owner", destinationEntityName: "Person", destinationName: "z998"),
        ])
    }

    @Test("hostile documents are refused with an error naming the file and the line",
          arguments: HostileDocument.all)
    func hostile(_ document: HostileDocument) throws {
        #expect(document.data != Data(XMLFixture.pets.utf8))
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = decode(document.data)
        let elapsed = clock.now - start
        if let problem = problem(outcome) { Issue.record("\(document.name): \(problem)") }
        #expect(elapsed < .seconds(5), "\(document.name) took \(elapsed)")
        if case let .corrupt(_, _, reason) = outcome {
            #expect(!reason.contains("root:"), "the error quotes an external file: \(reason)")
        }
    }

    @Test("a small store truncated at every length: an error, or (cut in trailing whitespace) the same image")
    func truncation() throws {
        var image = PetsModel.image()
        image.stampMetadata(type: .xml, model: model)
        let full = Data(XMLStoreFormat().encode(image, model: model).utf8)
        #expect(full.count < 8192)
        var problems: [String] = []
        for length in 0..<full.count {
            switch decode(full.prefix(length)) {
            case .decoded(let decoded):
                let rest = full[length...]
                if !Identical.differences(image, decoded).isEmpty || !rest.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) {
                    problems.append("length \(length) decoded to another image")
                }
            case let outcome:
                if let problem = problem(outcome) { problems.append("length \(length): \(problem)") }
            }
        }
        #expect(problems.isEmpty, "\(problems.count): \(problems.prefix(10).joined(separator: "; "))")
    }

    @Test("bit flips of every 7th byte, all 8 bits: a typed error or a decoded image, never a crash")
    func bitFlips() throws {
        var image = PetsModel.image()
        image.stampMetadata(type: .xml, model: model)
        var bytes = Data(XMLStoreFormat().encode(image, model: model).utf8)
        var problems: [String] = []
        var errors = 0
        for index in stride(from: 0, to: bytes.count, by: 7) {
            for bit in 0..<8 {
                bytes[index] ^= 1 << bit
                switch decode(bytes) {
                case .decoded: break
                case .otherError(let error): problems.append("byte \(index) bit \(bit): \(error)")
                case .refused(let file, _), let .corrupt(file, _, _):
                    errors += 1
                    if file != Self.path { problems.append("byte \(index) bit \(bit): named \(file)") }
                }
                bytes[index] ^= 1 << bit
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "; "))")
        #expect(errors > 0)
    }

    @Test("a DOCTYPE whose SYSTEM id is an http URL is never fetched")
    func remoteDoctype() throws {
        let listener = try LoopbackListener()
        defer { listener.close() }
        let url = "http://127.0.0.1:\(listener.port)/CoreData.dtd"
        for doctype in [#"<!DOCTYPE database SYSTEM "\#(url)">"#, #"<!DOCTYPE database PUBLIC "-//X//DTD X//EN" "\#(url)">"#] {
            let text = XMLFixture.pets.replacingOccurrences(
                of: #"<!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">"#, with: doctype)
            #expect(text.contains(url))
            let clock = ContinuousClock()
            let start = clock.now
            let outcome = decode(Data(text.utf8))
            #expect(clock.now - start < .seconds(5))
            switch outcome {
            case .decoded(let image): #expect(Identical.differences(PetsModel.image(), image).isEmpty)
            case let other: #expect(problem(other) == nil)
            }
            #expect(!listener.hasPendingConnection, "the reader connected to \(url)")
        }
    }

    @Test("an object with primary key Int64.max: decodes or errors, never traps")
    func largestPrimaryKey() throws {
        let text = XMLFixture.pets.replacingOccurrences(of: #"id="z102" pk="1""#, with: #"id="z102" pk="9223372036854775807""#)
        switch decode(Data(text.utf8)) {
        case .decoded(let image): #expect(image.nextPrimaryKeys["Person"] == .max)
        case let other: #expect(problem(other) == nil)
        }
    }

    @Test("readMetadata on hostile files throws a typed error")
    func metadataOfHostileFiles() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        for document in HostileDocument.all where ["billion laughs", "external entity", "wrong root element",
                                                     "missing <databaseInfo>", "empty file", "non-UTF-8 bytes"]
            .contains(document.name) || document.name.hasPrefix("deeply nested property") {
            let url = folder.appendingPathComponent("hostile.xml")
            try document.data.write(to: url)
            do {
                let metadata = try XMLStoreFormat.readMetadata(from: url)
                // The damage may lie after <databaseInfo>; then the metadata is the real one.
                #expect(metadata[StoreMetadataKey.storeUUID] == .string("PETS-STORE"), "\(document.name)")
            } catch let StoreError.corruptStore(file, _, _) {
                #expect(file == url.path)
            } catch {
                Issue.record("\(document.name): \(error)")
            }
        }
    }

    @Test("hostile files opened through the coordinator throw and are left untouched")
    func throughTheCoordinator() throws {
        StoreType.registerBuiltInTypes()
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, document) in HostileDocument.all.enumerated() {
            let url = folder.appendingPathComponent("hostile-\(index).xml")
            try document.data.write(to: url)
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            do {
                try coordinator.addPersistentStore(type: .xml, at: url)
                Issue.record("\(document.name): the store opened")
            } catch let StoreError.corruptStore(file, _, _) {
                #expect(file == url.path, "\(document.name)")
            } catch let StoreError.invalidStoredValue(problem) {
                #expect(problem.file == url.path, "\(document.name)")
            } catch let StoreError.incompatibleModel(file, _) {
                #expect(file == url.path, "\(document.name)")
            } catch {
                Issue.record("\(document.name): expected StoreError.corruptStore, got \(error)")
            }
            #expect(try Data(contentsOf: url) == document.data, "\(document.name): the file was changed")
        }
    }
}

/// A TCP socket listening on 127.0.0.1 that only records whether anyone connected.
final class LoopbackListener {
    private let descriptor: Int32
    let port: UInt16

    init() throws {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 4) == 0 else {
            closeSocket(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Whether a connection is waiting to be accepted.
    var hasPendingConnection: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 100) > 0
    }

    func close() {
        closeSocket(descriptor)
    }
}

private func closeSocket(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #else
    _ = Darwin.close(descriptor)
    #endif
}
