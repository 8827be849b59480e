import Foundation

/// The files `strata codegen` will write for a model, told before it runs: SwiftPM needs a build
/// command's outputs named in advance. The plugin cannot import Strata's modules, so this reads
/// the model with patterns; `StrataCodegenTests` compiles this same file and checks that it
/// names exactly the files `SwiftClassGenerator` writes, for every fixture model.
enum CodegenOutputNames {
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

    /// The tool's type name for a model name (`SwiftClassGenerator`'s rule).
    static func typeName(_ name: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars { scalars.append(scalar.properties.isXIDContinue ? scalar : "_") }
        var result = String(scalars)
        if let first = result.unicodeScalars.first, !first.properties.isXIDStart, first != "_" { result = "_" + result }
        return result.isEmpty ? "Model" : result
    }
}
