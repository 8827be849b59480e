import Foundation
import StrataCodegen
import StrataModelFiles
import Testing

/// The build-tool plugin names the files of its build command before `strata codegen` runs, by
/// reading the model with patterns (`CodegenOutputNames`, this target compiles the plugin's own
/// file). SwiftPM fails the build, or skips a file, when the names differ from what the tool
/// writes, so they must agree for every model.
@Suite("Plugin output names")
struct PluginOutputNamesTests {
    /// Every model among the fixtures: each `.xcdatamodeld`, and each `.xcdatamodel` outside one.
    static func fixtureModels() -> [URL] {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        var models: [URL] = []
        for folder in ["StrataModelFilesTests/Fixtures", "StoreConformanceTests/Resources"] {
            guard let walker = FileManager.default.enumerator(at: tests.appending(path: folder), includingPropertiesForKeys: nil)
            else { continue }
            for case let url as URL in walker where ["xcdatamodeld", "xcdatamodel"].contains(url.pathExtension) {
                models.append(url)
                walker.skipDescendants()
            }
        }
        return models.sorted { $0.path < $1.path }
    }

    @Test("The plugin names exactly the files strata codegen writes, for every fixture model")
    func agreeOnEveryFixture() throws {
        var compared = 0
        var withClasses = 0
        for url in Self.fixtureModels() {
            // Models Strata cannot read (pre-Xcode-4) or whose class names Swift cannot take make
            // the tool fail, and with it the build: there are no files to name.
            guard let loaded = try? ModelFile.read(at: url) else { continue }
            let name = url.deletingPathExtension().lastPathComponent
            guard let written = try? SwiftClassGenerator(loaded, modelName: name).fileNames() else { continue }
            let named = CodegenOutputNames.outputNames(contents: CodegenOutputNames.currentContents(of: url), modelName: name)
            #expect(named.sorted() == written.sorted(), "\(url.lastPathComponent)")
            compared += 1
            if written.count > 1 { withClasses += 1 }
        }
        // The fixtures hold about thirty readable models, two with entities set to generate code.
        #expect(compared >= 20)
        #expect(withClasses >= 2)
    }

    @Test("Type names: characters an identifier cannot hold become underscores, as the generator's")
    func typeNames() throws {
        for (model, file) in [("Moody", "MoodyClasses.swift"), ("Shop Model", "Shop_ModelClasses.swift"),
                              ("2024-model", "_2024_modelClasses.swift"), ("", "ModelClasses.swift")] {
            let empty = URL(fileURLWithPath: "/nonexistent/contents")
            #expect(CodegenOutputNames.outputNames(contents: empty, modelName: model) == [file])
            #expect(CodegenOutputNames.typeName(model) + "Classes.swift" == file)
        }
    }
}
