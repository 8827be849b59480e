import Foundation
import StrataCore
import StrataModelFiles
import Testing

/// Every model of the fixtures (real files written by Xcode in public projects) loads.
@Suite struct FixtureLoadingTests {
    @Test("the fixtures hold the expected model bundles and files")
    func fixturesAreThere() {
        // 27 bundles and one loose .xcdatamodel (rentzsch__mogenerator/test/test.xcdatamodel).
        #expect(Fixtures.modelPaths.count == 28)
        #expect(Fixtures.modelPaths.filter { $0.hasSuffix(".xcdatamodeld") }.count == 27)
        // 58 contents files inside version folders, plus MomXML's model.xml and model2.xml.
        #expect(Fixtures.contentsPaths.count == 60)
    }

    @Test("every bundle and version folder loads, every version of a bundle included", arguments: Fixtures.modelPaths)
    func everyModelLoads(_ path: String) throws {
        let url = Fixtures.url(path)
        if path == Fixtures.legacyBundle {
            #expect(throws: ModelFileError.self) { try ModelBundle(at: url) }
            return
        }
        if path.hasSuffix(".xcdatamodeld") {
            let bundle = try ModelBundle(at: url)
            #expect(!bundle.versions.isEmpty)
            #expect(bundle.versions[bundle.currentVersionName] == bundle.currentModel)
            for model in bundle.versions.values {
                #expect(!model.entities.isEmpty)
                #expect(model.entities.allSatisfy { $0.versionHash.count == 32 })
            }
            // ModelFile.load reads the current version only, and gets the same model.
            #expect(try ModelFile.load(at: url) == bundle.currentModel)
        } else {
            let model = try ModelFile.load(at: url)
            #expect(!model.entities.isEmpty)
        }
    }

    @Test("every contents file loads on its own", arguments: Fixtures.contentsPaths)
    func everyContentsFileLoads(_ path: String) throws {
        let loaded = try ModelFile.read(at: Fixtures.url(path))
        #expect(!loaded.model.entities.isEmpty)
        #expect(loaded.file.hasSuffix(path))
    }

    @Test("the pre-Xcode-4 model is reported as a legacy format, at its elements file")
    func legacyModel() throws {
        let bundle = Fixtures.url(Fixtures.legacyBundle)
        let version = bundle.appendingPathComponent("Recipes.xcdatamodel")
        let elements = version.appendingPathComponent("elements")
        for url in [bundle, version, elements] {
            let error = #expect(throws: ModelFileError.self) { try ModelFile.load(at: url) }
            guard case .legacyFormat(let file)? = error else {
                Issue.record("expected .legacyFormat for \(url.lastPathComponent), got \(String(describing: error))")
                continue
            }
            #expect(file.hasSuffix("Recipes.xcdatamodel/elements"))
        }
        #expect(try ModelFile.kind(of: version) == .legacyVersion)
        #expect(throws: ModelFileError.legacyFormat(file: elements.path)) { try ModelBundle(at: bundle) }
    }

    /// Bundle → current version, from `.xccurrentversion` or, without one, the only or last version.
    @Test("current versions", arguments: [
        ("duckduckgo__BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld", "BookmarksModel 6", 6),
        ("objcio__core-data/Migrations/Migrations/Moody.xcdatamodeld", "Moody 6", 6),
        ("HalloAppInc__halloapp-ios-pub/Halloapp/Models/Feed/CoreData Stack/Feed.xcdatamodeld", "Feed7", 7),
        ("RestKit__RestKit/Tests/Models/VersionedModel.xcdatamodeld", "VersionedModel 4", 4),
        ("alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld", "SampleModel", 3),
        ("bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld", "TestModel 2", 2),
        ("3lvis__Sync/Tests/Sync/Models/Contacts.xcdatamodeld", "Demo", 1),
        // No .xccurrentversion: the only version.
        ("gonzalezreal__Groot/GrootTests/Model.xcdatamodeld", "Model", 1),
        // .xccurrentversion is an empty dictionary: the last version in natural order.
        ("JohnEstropia__CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo/Advanced.EvolutionDemo.xcdatamodeld",
         "Advanced.EvolutionDemo.V2", 2),
    ])
    func currentVersion(_ path: String, _ current: String, _ versionCount: Int) throws {
        let bundle = try ModelBundle(at: Fixtures.url(path))
        #expect(bundle.currentVersionName == current)
        #expect(bundle.versions.count == versionCount)
        #expect(try ModelBundle.currentVersionName(in: Fixtures.url(path)) == current)
    }

    @Test("versions are listed in natural order")
    func naturalOrder() throws {
        let bundle = try ModelBundle(at: Fixtures.url("duckduckgo__BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld"))
        #expect(bundle.versionNames == [
            "BookmarksModel", "BookmarksModel 2", "BookmarksModel 3", "BookmarksModel 4", "BookmarksModel 5",
            "BookmarksModel 6",
        ])
    }

    @Test("a bundle, its version folder and the contents file give the same model")
    func sameModelThreeWays() throws {
        let bundle = Fixtures.url("objcio__core-data/Moody/MoodyModel/Moody.xcdatamodeld")
        let version = bundle.appendingPathComponent("Moody.xcdatamodel")
        let contents = version.appendingPathComponent("contents")
        #expect(try ModelFile.kind(of: bundle) == .bundle)
        #expect(try ModelFile.kind(of: version) == .version)
        #expect(try ModelFile.kind(of: contents) == .contents)
        let model = try ModelFile.load(at: bundle)
        #expect(try ModelFile.load(at: version) == model)
        #expect(try ModelFile.load(at: contents) == model)
    }

    /// The warnings the fixtures give, all of them: what Strata does not model, said once each.
    @Test("the fixtures' warnings are exactly the expected ones")
    func fixtureWarnings() throws {
        var found: [String: [ModelFileWarning.Kind]] = [:]
        for path in Fixtures.contentsPaths where !path.hasPrefix("magicalpanda__MagicalRecord/Samples") {
            let warnings = try ModelFile.read(at: Fixtures.url(path)).warnings
            if !warnings.isEmpty { found[path] = warnings.map(\.kind) }
        }
        let mogenerator = "rentzsch__mogenerator/test/test.xcdatamodel/contents"
        let ensembles = "drewmccormack__ensembles/Framework/Tests/CDEStoreModificationEventTestsModel.xcdatamodeld/"
            + "CDEStoreModificationEventTestsModel.xcdatamodel/contents"
        let indexed = ModelFileWarning.Kind.unsupportedFeature(
            element: "relationship", feature: "an indexed relationship (indexed; to-one foreign keys are indexed anyway)")
        let expected: [String: [ModelFileWarning.Kind]] = [
            mogenerator: [indexed, indexed, indexed, indexed],
            ensembles: [
                .unsupportedFeature(element: "attribute", feature: "storage in the ubiquity truth file (storedInTruthFile)"),
            ],
            "phimage__MomXML/Tests/model.xml": [
                .unsupportedFeature(element: "fetchIndexElement", feature: "an expression index element ('1')"),
                .droppedIndex(entity: "Client", index: "byPropertyIndex"),
                .droppedIndex(entity: "Commande", index: "byPropertyIndex1"),
            ],
            // Placeholders of Xcode's constraint editor ("iD", "comma,separated,properties").
            "phimage__MomXML/Tests/model2.xml": ["iD", "comma", "separated", "properties"].map {
                .droppedReference(entity: "SetLog", property: $0, from: "a uniqueness constraint")
            },
        ]
        #expect(found == expected)
    }

    @Test("warnings carry the file and line")
    func warningLocation() throws {
        let path = "drewmccormack__ensembles/Framework/Tests/CDEStoreModificationEventTestsModel.xcdatamodeld/"
            + "CDEStoreModificationEventTestsModel.xcdatamodel/contents"
        let warning = try #require(try ModelFile.read(at: Fixtures.url(path)).warnings.first)
        let line = try #require(warning.line)
        let lines = try String(contentsOf: Fixtures.url(path), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(warning.file == Fixtures.url(path).path)
        #expect(lines[line - 1].contains("storedInTruthFile"))
        #expect(warning.description.contains("contents:\(line): warning: "))
    }
}
