import Foundation
import Strata

/// An XML store document built from the hand-written pets store (``PetsModel/xmlDocument``) by
/// one edit, which a reader must refuse.
public struct HostileDocument: Sendable, CustomStringConvertible {
    /// What the edit does.
    public var name: String
    /// The document.
    public var data: Data
    public var description: String { name }

    /// A document of `data`.
    public init(_ name: String, data: Data) {
        self.name = name
        self.data = data
    }

    /// A document of `text` as UTF-8.
    public init(_ name: String, text: String) {
        self.init(name, data: Data(text.utf8))
    }

    /// The pets document with `target` replaced by `replacement` (the test checks that the
    /// document did change).
    public init(_ name: String, replacing target: String, with replacement: String) {
        self.init(name, text: PetsModel.xmlDocument.replacingOccurrences(of: target, with: replacement))
    }

    /// Rex's name, an edit point.
    static let rex = #"<attribute name="name" type="string">Rex</attribute>"#
    static let fins = #"<attribute name="fins" type="int32">5</attribute>"#
    static let age = #"<attribute name="age" type="int16">30</attribute>"#
    /// The whole `<databaseInfo>` element of the pets document, with its indentation.
    static let info: String = {
        let start = PetsModel.xmlDocument.range(of: "    <databaseInfo>")!.lowerBound
        let end = PetsModel.xmlDocument.range(of: "</databaseInfo>\n")!.upperBound
        return String(PetsModel.xmlDocument[start..<end])
    }()

    /// Every hostile document.
    public static let all: [HostileDocument] = [
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
        HostileDocument("wrong root element", text: PetsModel.xmlDocument
            .replacingOccurrences(of: "<database>", with: "<databank>")
            .replacingOccurrences(of: "</database>", with: "</databank>")),
        HostileDocument("mismatched end tag", replacing: "</object>\n</database>", with: "</objekt>\n</database>"),
        HostileDocument("missing </database>", replacing: "</database>", with: ""),
        HostileDocument("two root elements", replacing: "</database>", with: "</database><database></database>"),
        HostileDocument("non-UTF-8 bytes", data: {
            var data = Data(PetsModel.xmlDocument.utf8)
            let range = data.range(of: Data(">Ann<".utf8))!
            data.replaceSubrange(range, with: Data([0x3E, 0x41, 0xFF, 0xFE, 0xC0, 0x3C]))
            return data
        }()),
        HostileDocument("overlong UTF-8 (0xC0 0xBC for <)", data: {
            var data = Data(PetsModel.xmlDocument.utf8)
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
        HostileDocument("entity in an attribute value", text: PetsModel.xmlDocument
            .replacingOccurrences(of: "<!DOCTYPE database SYSTEM \"file:///System/Library/DTDs/CoreData.dtd\">",
                                  with: "<!DOCTYPE database [<!ENTITY t \"PET\">]>")
            .replacingOccurrences(of: #"type="FISH""#, with: #"type="&t;""#)),
    ]

    /// Entities nested ten deep, each expanding ten times.
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

    /// An entity that reads a local file.
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
