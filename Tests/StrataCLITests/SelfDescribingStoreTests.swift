import Foundation
import Strata
import StrataTestSupport
import Testing

/// Every store strata writes keeps its model: `convert-store` and `export` without `--model`
/// keep many-to-many and ordered relationships and sub-entities; a model guessed from an SQLite
/// store's tables is refused unless `--allow-loss`; `strata model` writes a store's model out.
@Suite struct SelfDescribingStoreTests {
    /// The sample store converted, with its model, into a store of `type`.
    static func sampleStore(_ type: String, in scratch: Scratch) throws -> String {
        let path = scratch.path("school.\(type)")
        try scratch.succeed("convert-store", CLI.sampleStore, path, "--model", CLI.model)
        return path
    }

    @Test("convert-store and export without --model on stores strata wrote keep many-to-many, ordered and sub-entities",
          arguments: CLI.writableTypes)
    func noModelNeeded(_ type: String) throws {
        let scratch = try Scratch()
        let store = try Self.sampleStore(type, in: scratch)
        let expected = try objectsSection(try scratch.export(CLI.sampleStore))
        #expect(try objectsSection(try scratch.succeed("export", store).stdout) == expected)
        #expect(try scratch.succeed("inspect", store).outputLines.contains("Model:    the store's compiled model matches the store"))
        // The sample has a many-to-many (Course.students), an ordered to-many and sub-entities of Person.
        #expect(expected.contains("\"Student/p1\"") && expected.contains("\"entity\": \"Teacher\""))
        for other in CLI.writableTypes {
            let copy = scratch.path("copy-of-\(type).\(other)")
            try scratch.succeed("convert-store", store, copy)
            #expect(try objectsSection(try scratch.succeed("export", copy).stdout) == expected, "\(type) → \(other)")
            #expect(try objectsSection(try scratch.export(copy)) == expected, "\(type) → \(other) with --model")
        }
    }

    @Test("a tables-only SQLite store with a many-to-many is refused without --allow-loss, naming what is lost, and read with it")
    func tablesOnlyStore() throws {
        let scratch = try Scratch()
        let store = try Self.sampleStore("sqlite", in: scratch)
        _ = try SQLiteShell.rows(URL(fileURLWithPath: store), "DROP TABLE Z_MODELCACHE")
        for command in [["convert-store", store, scratch.path("out.xml")], ["export", store]] {
            let refused = try scratch.run(command)
            #expect(refused.status == 2, "\(refused)")
            #expect(refused.stdout.isEmpty, "\(refused)")
            for fragment in ["would lose data", "--allow-loss", "Z_1STUDENTS", "Z_FOK_", "share table ZPERSON", "lower case"] {
                #expect(refused.stderr.contains(fragment), "\(fragment): \(refused)")
            }
        }
        #expect(!scratch.exists(scratch.path("out.xml")))
        let allowed = try scratch.run("convert-store", store, scratch.path("out.xml"), "--allow-loss")
        #expect(allowed.status == 0, "\(allowed)")
        #expect(allowed.stderr.contains("warning:") && allowed.stderr.contains("Z_1STUDENTS"), "\(allowed)")
        #expect(scratch.exists(scratch.path("out.xml")))
        let exported = try scratch.run("export", store, "--allow-loss")
        #expect(exported.status == 0 && exported.stdout.contains("\"objects\""), "\(exported)")
        // strata model writes the guessed model only with --allow-loss.
        let refusedModel = try scratch.run("model", store)
        #expect(refusedModel.status == 2 && refusedModel.stderr.contains("--allow-loss"), "\(refusedModel)")
        let guessed = try scratch.run("model", store, "--allow-loss")
        #expect(guessed.status == 0 && guessed.stdout.contains("<entity name=\"Person\""), "\(guessed)")
        // Commands that only read go on with a warning.
        let counted = try scratch.run("query", store, "--entity", "Course", "--count")
        #expect(counted.status == 0 && counted.stderr.contains("warning:"), "\(counted)")
    }

    @Test("strata model writes the store's model as a model file that reads back as the same model", arguments: CLI.writableTypes)
    func modelCommand(_ type: String) throws {
        let scratch = try Scratch()
        let store = try Self.sampleStore(type, in: scratch)
        let original = try ModelFile.load(at: URL(fileURLWithPath: CLI.model))
        let folder = scratch.path("School.xcdatamodel")
        try scratch.succeed("model", store, "--output", folder)
        let written = try ModelFile.load(at: URL(fileURLWithPath: folder))
        #expect(written == original)
        #expect(written.entityVersionHashesByName == original.entityVersionHashesByName)
        // An existing output is replaced only with --force.
        expectOneLineFailure(try scratch.run("model", store, "--output", folder), mentioning: [folder, "--force"])
        try scratch.succeed("model", store, "--output", folder, "--force")
        // `-` is standard output: the contents XML.
        let printed = try scratch.succeed("model", store, "--output", "-")
        #expect(printed.stdout == String(decoding: try scratch.read(folder + "/contents"), as: UTF8.self))
        // The written model reads the store as its own compiled model does.
        #expect(try scratch.export(store, model: folder) == (try scratch.succeed("export", store).stdout))
    }

    @Test("strata model refuses a store that keeps no model")
    func modelCommandWithoutModel() throws {
        let scratch = try Scratch()
        expectOneLineFailure(try scratch.run("model", CLI.sampleStore), mentioning: ["keeps no compiled model"])
    }

    @Test("an SQLite-to-SQLite copy keeps the source's compiled model bytes, Apple's included")
    func sqliteCopyKeepsAppleCache() throws {
        let scratch = try Scratch()
        let store = try scratch.copyAppleStore(CompiledModelCLITests.bookmarks)
        let copy = scratch.path("copy.sqlite")
        try scratch.succeed("convert-store", store, copy)
        let source = try #require(try SQLiteStore.compiledModelData(at: URL(fileURLWithPath: store)))
        #expect(try SQLiteStore.compiledModelData(at: URL(fileURLWithPath: copy)) == source)
        // A copy into another format keeps the same model in Strata's encoding.
        let xml = scratch.path("copy.xml")
        try scratch.succeed("convert-store", store, xml)
        #expect(try scratch.succeed("export", xml).stdout.contains("\"BookmarkEntity\""))
    }
}
