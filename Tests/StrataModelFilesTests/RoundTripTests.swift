import Foundation
import StrataCore
import StrataModelFiles
import StrataTestSupport
import Testing

/// Writing a model and reading it back gives an equal model.
@Suite struct RoundTripTests {
    @Test("every fixture contents file survives write → read", arguments: Fixtures.contentsPaths)
    func fixtureRoundTrip(_ path: String) throws {
        let original = try ModelFile.load(at: Fixtures.url(path))
        let xml = try ModelFileWriter().contents(of: original)
        let reread = try readContents(xml, file: "written/\(path)")
        #expect(reread.model == original)
        #expect(reread.warnings.isEmpty)
        #expect(reread.model.entityVersionHashesByName == original.entityVersionHashesByName)
        #expect(reread.model.entities.map(\.name) == original.entities.map(\.name))
        // Writing is stable: what we wrote, read and written again, is the same text.
        #expect(try ModelFileWriter().contents(of: reread.model) == xml)
    }

    @Test("every fixture bundle survives write → read, versions and current version included",
          arguments: Fixtures.modelPaths.filter { $0.hasSuffix(".xcdatamodeld") && $0 != Fixtures.legacyBundle })
    func bundleRoundTrip(_ path: String) throws {
        let original = try ModelBundle(at: Fixtures.url(path))
        try TemporaryFolder.with { folder in
            let copy = folder.appendingPathComponent("Copy.xcdatamodeld")
            try original.write(to: copy)
            let reread = try ModelBundle(at: copy)
            #expect(reread.versionNames == original.versionNames)
            #expect(reread.currentVersionName == original.currentVersionName)
            #expect(reread.versions == original.versions)
            #expect(reread.warnings.isEmpty)
        }
    }

    @Test("a model built in code with every feature survives write → read")
    func everyFeature() throws {
        let model = try EveryFeatureModel.make()
        let xml = try ModelFileWriter().contents(of: model)
        let reread = try readContents(xml)
        #expect(reread.warnings.isEmpty)
        #expect(reread.model == model)
        #expect(reread.model.entityVersionHashesByName == model.entityVersionHashesByName)
        #expect(try ModelFileWriter().contents(of: reread.model) == xml)

        // Spot checks of what equality covers.
        let publication = try #require(reread.model.entity(named: "Publication"))
        #expect(publication.userInfo["note"] == EveryFeatureModel.tricky)
        #expect(publication.attribute(named: "title")?.defaultValue == .string(EveryFeatureModel.tricky))
        #expect(publication.attribute(named: "rating")?.defaultValue == .double(-0.0))
        #expect(publication.attribute(named: "published")?.minimum == -978_307_200)
        let authors = try #require(reread.model.entity(named: "Book")?.relationship(named: "authors"))
        #expect(authors.minCount == 1 && authors.maxCount == 5 && authors.isOrdered && authors.deleteRule == .deny)
        #expect(reread.model.entity(named: "Author")?.attribute(named: "bookCount")?.derivationExpression == "books.@count")
        #expect(reread.model.versionIdentifiers == ["2.0 beta <&>"])
        #expect(reread.model.configurations["Empty"] == [])
    }

    @Test("a bundle made in code is written with .xccurrentversion and reads back")
    func bundleFromCode() throws {
        let first = try EveryFeatureModel.make()
        let second = try ModelFile.load(at: Fixtures.url("objcio__core-data/Moody/MoodyModel/Moody.xcdatamodeld"))
        let bundle = try ModelBundle(versions: ["Library": first, "Library 2": second], currentVersionName: "Library 2")
        try TemporaryFolder.with { folder in
            let url = folder.appendingPathComponent("Library.xcdatamodeld")
            try bundle.write(to: url)
            #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("Library.xcdatamodel/contents").path))
            #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("Library 2.xcdatamodel/contents").path))

            // .xccurrentversion is an XML property list naming the folder, as Xcode writes it.
            let data = try Data(contentsOf: url.appendingPathComponent(".xccurrentversion"))
            #expect(String(decoding: data, as: UTF8.self).hasPrefix("<?xml"))
            let plist = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String]
            #expect(plist == ["_XCCurrentVersionName": "Library 2.xcdatamodel"])

            let reread = try ModelBundle(at: url)
            #expect(reread.currentVersionName == "Library 2")
            #expect(reread.versions == bundle.versions)
            #expect(try ModelFile.load(at: url) == second)
        }
    }

    @Test("a version folder and a contents file are written and read back")
    func versionFolderAndContentsFile() throws {
        let model = try EveryFeatureModel.make()
        try TemporaryFolder.with { folder in
            let version = folder.appendingPathComponent("Model.xcdatamodel")
            try ModelFileWriter().write(model, toVersionFolder: version)
            #expect(try ModelFile.load(at: version) == model)
            let contents = folder.appendingPathComponent("loose-contents")
            try ModelFileWriter().write(model, toContentsFile: contents)
            #expect(try ModelFile.load(at: contents) == model)
        }
    }

    @Test("the text written is what Xcode writes")
    func xcodeLayout() throws {
        var entity = EntityDescription("Note", managedObjectClassName: "Note")
        entity.declaredProperties = [
            .attribute(AttributeDescription(name: "created", type: .date, isOptional: false,
                                            defaultValue: .date(Date(timeIntervalSinceReferenceDate: 0)))),
            .attribute(AttributeDescription(name: "count", type: .integer32, defaultValue: .integer(0), minimum: 0)),
            .attribute(AttributeDescription(name: "text", type: .string)),
            .relationship(RelationshipDescription(name: "folder", destination: "Folder", inverse: "notes")),
        ]
        var folder = EntityDescription("Folder", managedObjectClassName: "Folder")
        folder.declaredProperties = [
            .relationship(RelationshipDescription(
                name: "notes", destination: "Note", inverse: "folder", toMany: true, isOrdered: true, deleteRule: .cascade)),
        ]
        let model = try ManagedObjectModel(
            entities: [folder, entity, EntityDescription("Tag")],
            configurations: ["Nothing": [], "Notes": ["Note", "Folder"]],
            fetchRequestTemplates: ["recent": FetchRequestTemplate(
                name: "recent", entityName: "Note", predicateFormat: "created > $DATE AND text != \"\"")])
        let expected = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23F79" minimumToolsVersion="Automatic" sourceLanguage="Swift">
                <entity name="Folder" representedClassName="Folder" syncable="YES">
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" ordered="YES" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
                </entity>
                <entity name="Note" representedClassName="Note" syncable="YES">
                    <attribute name="created" attributeType="Date" defaultDateTimeInterval="0"/>
                    <attribute name="count" optional="YES" attributeType="Integer 32" minValueString="0" defaultValueString="0"/>
                    <attribute name="text" optional="YES" attributeType="String"/>
                    <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                </entity>
                <entity name="Tag" syncable="YES"/>
                <fetchRequest name="recent" entity="Note" predicateString="created &gt; $DATE AND text != &quot;&quot;"/>
                <configuration name="Notes">
                    <memberEntity name="Note"/>
                    <memberEntity name="Folder"/>
                </configuration>
                <configuration name="Nothing"/>
            </model>

            """
        #expect(try ModelFileWriter().contents(of: model) == expected)
    }

    @Test("default values keep their exact value through the file", arguments: [
        (AttributeType.integer16, AttributeValue.integer(-32768)),
        (.integer32, .integer(2_147_483_647)),
        (.integer64, .integer(Int64.max)),
        (.decimal, .decimal(Decimal(string: "0.000000000000000000000000000001", locale: Locale(identifier: "en_US_POSIX")) ?? 0)),
        (.decimal, .decimal(Decimal(string: "-98765432109876543210.5", locale: Locale(identifier: "en_US_POSIX")) ?? 0)),
        (.double, .double(0.1)),
        (.double, .double(-Double.leastNonzeroMagnitude)),
        (.double, .double(Double.greatestFiniteMagnitude)),
        (.double, .double(Double.infinity)),
        (.float, .float(Float.pi)),
        (.float, .float(-0.0)),
        (.date, .date(Date(timeIntervalSinceReferenceDate: -0.001))),
        (.date, .date(Date(timeIntervalSinceReferenceDate: 700_000_000.123456))),
        (.string, .string("  leading and trailing spaces  ")),
        (.string, .string("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}")),
        (.boolean, .boolean(true)),
        (.uuid, .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID())),
        (.uri, .uri(URL(string: "x-coredata://ABC/Book/p1") ?? URL(fileURLWithPath: "/"))),
    ])
    func defaultValues(_ type: AttributeType, _ value: AttributeValue) throws {
        var entity = EntityDescription("E")
        entity.declaredProperties = [.attribute(AttributeDescription(name: "a", type: type, defaultValue: value))]
        let model = try ManagedObjectModel(entities: [entity])
        let reread = try readContents(try ModelFileWriter().contents(of: model))
        #expect(reread.warnings.isEmpty)
        #expect(reread.model.entity(named: "E")?.attribute(named: "a")?.defaultValue == value)
    }
}
