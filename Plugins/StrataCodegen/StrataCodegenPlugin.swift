import Foundation
import PackagePlugin

/// Runs `strata codegen` for every `.xcdatamodeld` (or `.xcdatamodel`) in a target's folder as
/// the target builds, writing the classes into the build's plugin folder; SwiftPM runs it again
/// when a file of the model changes.
///
/// Thin on purpose: the entities are found by reading the model's `<entity>` elements (the
/// output files must be named before the tool runs), and all the work is `strata codegen`'s.
@main
struct StrataCodegenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: "StrataCLI")
        var commands: [Command] = []
        for model in Self.models(in: target.directoryURL) {
            let output = context.pluginWorkDirectoryURL.appending(path: model.name)
            let contents = CodegenOutputNames.currentContents(of: model.url)
            let outputs = CodegenOutputNames.outputNames(contents: contents, modelName: model.name).map { output.appending(path: $0) }
            commands.append(.buildCommand(
                displayName: "Generating classes for \(model.url.lastPathComponent)",
                executable: tool.url,
                arguments: ["codegen", model.url.path, "--output", output.path, "--quiet"],
                inputFiles: Self.files(under: model.url),
                outputFiles: outputs))
        }
        return commands
    }

    /// The models in `folder` and its subfolders: bundles, and version folders outside bundles.
    static func models(in folder: URL) -> [(name: String, url: URL)] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        var models: [(String, URL)] = []
        for case let url as URL in walker {
            switch url.pathExtension {
            case "xcdatamodeld":
                models.append((url.deletingPathExtension().lastPathComponent, url))
                walker.skipDescendants()
            case "xcdatamodel":
                models.append((url.deletingPathExtension().lastPathComponent, url))
                walker.skipDescendants()
            default:
                continue
            }
        }
        return models.sorted { $0.1.path < $1.1.path }
    }

    /// Every file of a model, so that a change to any of them regenerates.
    static func files(under url: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { return [url] }
        return walker.compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath }
    }
}
