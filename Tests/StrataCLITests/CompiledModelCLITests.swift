import Foundation
import StrataTestSupport
import Testing

/// `inspect` and `export` without `--model` read an Apple-written SQLite store with the compiled
/// model it keeps, or with the model its tables describe when it keeps none, and name a damaged
/// one.
@Suite struct CompiledModelCLITests {
    static let bookmarks = "duckduckgo__BrowserServicesKit/Tests/BookmarksTests/Resources/Bookmarks_V3.sqlite"
    static let bookmarksModel = CLI.repositoryRoot.appendingPathComponent(
        "Tests/StrataModelFilesTests/Fixtures/duckduckgo__BrowserServicesKit/Sources/Bookmarks/BookmarksModel.xcdatamodeld/BookmarksModel 3.xcdatamodel").path
    static let recipes = "magicalpanda__MagicalRecord/Samples/iOS/Resources/RecipeData/Recipes.sqlite"
    static let sampleModel3 = "alemar11__CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3_V1.sqlite"

    @Test("inspect without --model compares the store with its compiled model and counts its objects")
    func inspectWithCompiledModel() throws {
        let scratch = try Scratch()
        let store = try scratch.copyAppleStore(Self.bookmarks)
        let result = try scratch.succeed("inspect", store)
        #expect(result.outputLines.contains("Model:    the store's compiled model matches the store"), "\(result)")
        let withModelFile = try scratch.succeed("inspect", store, "--model", Self.bookmarksModel)
        let objects = try #require(result.stdout.range(of: "Objects:\n"), "\(result)")
        let objectsWithModelFile = try #require(withModelFile.stdout.range(of: "Objects:\n"), "\(withModelFile)")
        #expect(result.stdout[objects.lowerBound...] == withModelFile.stdout[objectsWithModelFile.lowerBound...])
        #expect(result.outputLines.contains { $0.hasPrefix("  BookmarkEntity ") && !$0.hasSuffix(" 0") }, "\(result)")

        let json = try scratch.succeed("inspect", store, "--json")
        let report = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any], "\(json)")
        let model = try #require(report["model"] as? [String: Any])
        #expect(model["source"] as? String == "store")
        #expect(model["matches"] as? Bool == true)
        #expect(report["objects"] is [String: Any])
    }

    @Test("export without --model writes the document export --model writes")
    func exportWithCompiledModel() throws {
        let scratch = try Scratch()
        let store = try scratch.copyAppleStore(Self.bookmarks)
        let compiled = try scratch.succeed("export", store).stdout
        let withModelFile = try scratch.export(store, model: Self.bookmarksModel)
        #expect(compiled == withModelFile)
        #expect(compiled.contains("\"BookmarkEntity\""))
    }

    @Test("without --model, an SQLite store that keeps no compiled model is read with the model its tables describe, with --allow-loss and a warning")
    func storeWithoutCompiledModel() throws {
        let scratch = try Scratch()
        let store = try scratch.copyAppleStore(Self.recipes)
        let refused = try scratch.run("export", store)
        #expect(refused.status == 2 && refused.stdout.isEmpty, "\(refused)")
        #expect(refused.stderr.contains("would lose data") && refused.stderr.contains("--allow-loss"), "\(refused)")
        let exported = try scratch.run("export", store, "--allow-loss")
        #expect(exported.status == 0, "\(exported)")
        #expect(exported.stderr.contains("strata: warning: \(store): keeps no compiled model"), "\(exported)")
        #expect(exported.stdout.contains("\"entity\": \"Recipe\""), "\(exported)")
        let inspected = try scratch.run("inspect", store)
        #expect(inspected.status == 0, "\(inspected)")
        #expect(inspected.outputLines.contains("Model:    the model its tables describe (the store keeps no compiled model)"), "\(inspected)")
        #expect(inspected.outputLines.contains("  Ingredient  31"), "\(inspected)")  // SELECT COUNT(*) FROM ZINGREDIENT
        // A store of another type keeps no model at all.
        expectOneLineFailure(try scratch.run("export", CLI.sampleStore), mentioning: ["keeps no compiled model", "--model"])
    }

    @Test("a damaged compiled model is a one-line error for inspect and export", arguments: ["randomblob(64)", "X''", "substr(Z_CONTENT, 1, 100)"])
    func damagedCompiledModel(content: String) throws {
        let scratch = try Scratch()
        let store = try scratch.copyAppleStore(Self.sampleModel3)
        _ = try SQLiteShell.rows(URL(fileURLWithPath: store), "UPDATE Z_MODELCACHE SET Z_CONTENT = \(content)")
        for command in ["inspect", "export"] {
            expectOneLineFailure(try scratch.run(command, store), mentioning: [store, "compiled model"])
        }
        // With --model the compiled model is not read.
        try scratch.succeed("inspect", store, "--model", CLI.repositoryRoot.appendingPathComponent(
            "Tests/StrataModelFilesTests/Fixtures/alemar11__CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel").path)
    }

    @Test("convert-store, validate and query without --model read an SQLite store with its compiled model; an XML store needs one")
    func otherCommandsWithoutModel() throws {
        let scratch = try Scratch()
        let store = try scratch.copyAppleStore(Self.bookmarks)
        let counted = try scratch.succeed("query", store, "--entity", "BookmarkEntity", "--count")
        #expect(counted.outputLines == ["10"])
        let validated = try scratch.succeed("validate", store)
        #expect(validated.outputLines.last == "10 objects checked, 0 validation failures", "\(validated)")
        let copy = scratch.path("bookmarks.xml")
        try scratch.succeed("convert-store", store, copy)
        // The copy is read back with the model file: the same document as the original's.
        #expect(try scratch.export(copy, model: Self.bookmarksModel) == (try scratch.export(store, model: Self.bookmarksModel))
            .replacingOccurrences(of: "\"type\": \"SQLite\"", with: "\"type\": \"XML\"")
            .replacingOccurrences(of: "\"NSStoreType\": \"SQLite\"", with: "\"NSStoreType\": \"XML\""))
        expectOneLineFailure(try scratch.run("query", CLI.sampleStore, "--entity", "Course"), mentioning: ["keeps no compiled model", "--model"])
    }
}
