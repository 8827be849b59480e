import Foundation
import Strata
@_spi(StoreImplementation) import StrataCore
import StrataTestSupport
@testable @_spi(StoreImplementation) import StrataXML
import Testing

/// A store in exactly the layout Apple's Core Data (and Xcode, for its `xcmapping.xml` files)
/// writes: entity names upper-cased in `type`, camel-case property names lower-cased in `name`,
/// metadata `<data>` broken over tab-indented lines, no `pk`/`version`, empty relationships
/// without `idrefs`, a left-over object whose to-one is empty.
@Suite("XML stores written by Apple's Core Data")
struct XMLAppleStoreTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("ShelfGroup") {
                Attribute("displayName", .string, optional: false)
                Attribute("sortNumber", .integer16)
                Attribute("isPinned", .boolean)
                Attribute("coverImageData", .binaryData)
                Relationship("bookItems", toMany: "BookItem", inverse: "shelfGroup")
            }
            EntityDescription("BookItem") {
                Attribute("titleText", .string)
                Relationship("shelfGroup", to: "ShelfGroup", inverse: "bookItems")
            }
        }
    }

    static let document = """
        <?xml version="1.0" standalone="yes"?>
        <!DOCTYPE database SYSTEM "file:///System/Library/DTDs/CoreData.dtd">

        <database>
            <databaseInfo>
                <version>134481920</version>
                <UUID>3F477D57-4044-4E9E-9845-6B9B63B11BB7</UUID>
                <nextObjectID>106</nextObjectID>
                <metadata>
                    <plist version="1.0">
                        <dict>
                            <key>NSPersistenceFrameworkVersion</key>
                            <integer>977</integer>
                            <key>NSStoreModelVersionHashes</key>
                            <dict>
                                <key>BookItem</key>
                                <data>
        \t\t0plcXXRN7XHKl5CcF+fwriFmUpON3ZtcI/AfK748aWc=
        \t\t</data>
                            </dict>
                            <key>NSStoreModelVersionHashesVersion</key>
                            <integer>3</integer>
                            <key>NSStoreModelVersionIdentifiers</key>
                            <array>
                                <string></string>
                            </array>
                        </dict>
                    </plist>
                </metadata>
            </databaseInfo>
            <object type="BOOKITEM" id="z102">
                <attribute name="titletext" type="string">⭐️Sources/Demos &amp; more</attribute>
                <relationship name="shelfgroup" type="1/1" destination="SHELFGROUP" idrefs="z105"></relationship>
            </object>
            <object type="BOOKITEM" id="z103">
                <attribute name="titletext" type="string">left over</attribute>
                <relationship name="shelfgroup" type="1/1" destination="SHELFGROUP"></relationship>
            </object>
            <object type="SHELFGROUP" id="z104">
                <attribute name="displayname" type="string">Empty</attribute>
                <relationship name="bookitems" type="0/0" destination="BOOKITEM"></relationship>
            </object>
            <object type="SHELFGROUP" id="z105">
                <attribute name="coverimagedata" type="binary">YnBsaXN0MDDUAQIDBAUGBwpYJHZlcnNpb25ZJGFyY2hpdmVyVCR0b3BYJG9iamVjdHMSAAGGoF8Q
        D05TS2V5ZWRBcmNoaXZlcg==
        </attribute>
                <attribute name="displayname" type="string">Reading</attribute>
                <attribute name="sortnumber" type="int16">1</attribute>
                <attribute name="ispinned" type="bool">1</attribute>
                <relationship name="bookitems" type="0/0" destination="BOOKITEM" idrefs="z102"></relationship>
            </object>
        </database>

        """

    @Test("Names match the model ignoring case; keys come from the ids; empty relationships read as empty")
    func appleLayout() throws {
        let image = try XMLFixture.decode(Self.document, file: "/memory/apple.xml", model: Self.model())
        let store = "3F477D57-4044-4E9E-9845-6B9B63B11BB7"
        #expect(image.identifier == store)
        let book = try #require(image.objects[ManagedObjectID(entityName: "BookItem", storeIdentifier: store, primaryKey: 102)])
        let leftOver = try #require(image.objects[ManagedObjectID(entityName: "BookItem", storeIdentifier: store, primaryKey: 103)])
        let empty = try #require(image.objects[ManagedObjectID(entityName: "ShelfGroup", storeIdentifier: store, primaryKey: 104)])
        let shelf = try #require(image.objects[ManagedObjectID(entityName: "ShelfGroup", storeIdentifier: store, primaryKey: 105)])

        #expect(book.attributes["titleText"] == .string("⭐️Sources/Demos & more"))
        #expect(book.toOne["shelfGroup"] == shelf.objectID)
        #expect(leftOver.toOne["shelfGroup"] == nil)
        #expect((empty.toMany["bookItems"] ?? []).isEmpty)
        #expect(shelf.toMany["bookItems"] == [book.objectID])
        #expect(shelf.attributes["sortNumber"] == .integer(1))
        #expect(shelf.attributes["isPinned"] == .boolean(true))
        // Base64 broken over lines, as Apple writes it.
        guard case .binary(let cover)? = shelf.attributes["coverImageData"] else { Issue.record("no cover"); return }
        #expect(cover.starts(with: Array("bplist00".utf8)) && cover.count == 73)

        // Metadata: integers, the array with an empty string, and the hash data over tab-indented lines.
        #expect(image.metadata["NSPersistenceFrameworkVersion"] == .integer(977))
        #expect(image.metadata[StoreMetadataKey.modelVersionIdentifiers] == .array([.string("")]))
        let hash = image.metadata[StoreMetadataKey.modelVersionHashes]?.dictionaryValue?["BookItem"]?.dataValue
        #expect(hash?.count == 32)
        #expect(hash?.base64EncodedString() == "0plcXXRN7XHKl5CcF+fwriFmUpON3ZtcI/AfK748aWc=")
    }

    @Test("Metadata alone reads from an Apple file too")
    func appleMetadata() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("apple.xml")
        try Data(Self.document.utf8).write(to: url)
        let metadata = try XMLStoreFormat.readMetadata(from: url)
        #expect(metadata[StoreMetadataKey.modelVersionHashesVersion] == .integer(3))
        #expect(try StoreType.detect(at: url) == .xml)
    }
}
