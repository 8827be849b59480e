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
            let contents = Self.currentContents(of: model.url)
            let outputs = Self.outputNames(contents: contents, modelName: model.name).map { output.appending(path: $0) }
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

    /// The contents file of the current version of a bundle, or of a version folder.
    static func currentContents(of url: URL) -> URL {
        guard url.pathExtension == "xcdatamodeld" else { return url.appending(path: "contents") }
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
            .filter { $0.hasSuffix(".xcdatamodel") }.sorted()
        var current = versions.last
        if let plist = try? Data(contentsOf: url.appending(path: ".xccurrentversion")),
           let text = String(data: plist, encoding: .utf8),
           let range = text.range(of: #"<string>([^<]+)</string>"#, options: .regularExpression) {
            current = String(text[range].dropFirst("<string>".count).dropLast("</string>".count))
        }
        return url.appending(path: current ?? "").appending(path: "contents")
    }

    /// The files `strata codegen` writes for the contents file: one per entity whose setting
    /// generates code, and the model's list of classes. Read with patterns: the plugin has no
    /// XML parser, and the tool checks the model for real.
    static func outputNames(contents: URL, modelName: String) -> [String] {
        guard let data = try? Data(contentsOf: contents), let text = String(data: data, encoding: .utf8) else {
            return [typeName(modelName) + "Classes.swift"]
        }
        var names: [String] = []
        var rest = text[...]
        while let start = rest.range(of: "<entity ") {
            let end = rest[start.upperBound...].range(of: ">")?.lowerBound ?? rest.endIndex
            let tag = rest[start.upperBound..<end]
            rest = rest[end...]
            guard let name = attribute("name", in: tag) else { continue }
            let className = attribute("representedClassName", in: tag)
                .flatMap { $0.split(separator: ".").last.map(String.init) }
                .flatMap { $0 == "NSManagedObject" ? nil : $0 } ?? name
            switch attribute("codeGenerationType", in: tag) {
            case "class": names.append(className + ".swift")
            case "category": names.append(className + "+Properties.swift")
            default: continue
            }
        }
        return names + [typeName(modelName) + "Classes.swift"]
    }

    static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let start = tag.range(of: " " + name + "=\"") ?? (tag.hasPrefix(name + "=\"") ? tag.range(of: name + "=\"") : nil),
              let end = tag[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(tag[start.upperBound..<end])
    }

    /// The tool's type name for a model name (``SwiftClassGenerator``'s rule).
    static func typeName(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars { scalars.append(scalar.properties.isXIDContinue ? scalar : "_") }
        var result = String(scalars)
        if let first = result.unicodeScalars.first, !first.properties.isXIDStart, first != "_" { result = "_" + result }
        return result.isEmpty ? "Model" : result
    }
}
