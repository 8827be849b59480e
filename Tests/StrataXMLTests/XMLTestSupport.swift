import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
@testable import StrataXML
import StrataTestSupport

/// Decoding XML store documents in memory, without files.
enum XMLFixture {
    /// Decodes a whole document as the XML store reads its file.
    static func decode(_ data: Data, file: String, model: ManagedObjectModel) throws -> StoreImage {
        let reader = try XMLStreamReader(data: data, file: file)
        return try XMLStoreDecoder(reader: reader, model: model).decode(objects: true)
    }

    /// Decodes a document given as text.
    static func decode(_ text: String, file: String, model: ManagedObjectModel) throws -> StoreImage {
        try decode(Data(text.utf8), file: file, model: model)
    }

    /// Whether `xmllint --noout` accepts the file; nil when xmllint is not installed.
    static func xmllintAccepts(_ url: URL) throws -> (ok: Bool, output: String)? {
        let tool = URL(fileURLWithPath: "/usr/bin/xmllint")
        guard FileManager.default.isExecutableFile(atPath: tool.path) else { return nil }
        let process = Process()
        process.executableURL = tool
        process.arguments = ["--noout", "--nonet", url.path]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus == 0, String(decoding: output, as: UTF8.self))
    }

    /// A small store of the pets model written by hand after `docs/formats/xml.md`; it holds
    /// exactly ``PetsModel/image(identifier:)``.
    static let pets = """
        <?xml version="1.0" standalone="yes"?>
        <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

        <database>
            <databaseInfo>
                <version>134481920</version>
                <UUID>PETS-STORE</UUID>
                <nextObjectID>106</nextObjectID>
                <nextPrimaryKey entity="ANIMAL">4</nextPrimaryKey>
                <nextPrimaryKey entity="PERSON">2</nextPrimaryKey>
                <metadata>
                    <plist version="1.0">
                        <dict>
                            <key>NSStoreUUID</key>
                            <string>PETS-STORE</string>
                            <key>n</key>
                            <integer>7</integer>
                            <key>note</key>
                            <string>hostile tests</string>
                        </dict>
                    </plist>
                </metadata>
            </databaseInfo>
            <object type="PERSON" id="z102" pk="1" version="1">
                <attribute name="age" type="int16">30</attribute>
                <attribute name="name" type="string">Ann</attribute>
                <relationship name="pets" type="0/0" destination="ANIMAL" idrefs="z103 z104 z105"></relationship>
            </object>
            <object type="PET" id="z103" pk="1" version="1">
                <attribute name="name" type="string">Rex</attribute>
                <attribute name="vaccinated" type="bool">1</attribute>
                <relationship name="owner" type="1/1" destination="PERSON" idrefs="z102"></relationship>
            </object>
            <object type="PET" id="z104" pk="2" version="1">
                <attribute name="name" type="string">Tom</attribute>
                <relationship name="owner" type="1/1" destination="PERSON" idrefs="z102"></relationship>
            </object>
            <object type="FISH" id="z105" pk="3" version="1">
                <attribute name="fins" type="int32">5</attribute>
                <relationship name="owner" type="1/1" destination="PERSON" idrefs="z102"></relationship>
            </object>
        </database>

        """
}
