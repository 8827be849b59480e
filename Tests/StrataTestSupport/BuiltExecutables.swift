import Foundation

/// Executables the package builds next to the test binary (`strata`, `StoreSaveLoop`), for tests
/// that run them as processes.
public enum BuiltExecutables {
    /// Folders where the build puts executables next to the test binary.
    public static var searchedFolders: [URL] {
        var starts: [URL] = []
        if let executable = Bundle.main.executableURL { starts.append(executable.deletingLastPathComponent()) }
        starts.append(Bundle.main.bundleURL)
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first).standardizedFileURL.deletingLastPathComponent())
        }
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(URL(fileURLWithPath: resolved).deletingLastPathComponent())
        }
        var folders: [URL] = []
        for start in starts {
            var folder = start
            for _ in 0..<4 {   // …/debug/StrataPackageTests.xctest/Contents/MacOS on Apple platforms
                if !folders.contains(folder) { folders.append(folder) }
                folder.deleteLastPathComponent()
            }
        }
        return folders
    }

    /// The built executable called `name`, or nil when none of ``searchedFolders`` has it.
    public static func url(named name: String) -> URL? {
        searchedFolders.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }
}
