import Foundation
import StrataCodegen
import Testing

/// `strata codegen`: Xcode's per-entity settings, files written and replaced only when they are
/// generated ones, stale ones removed, bad models refused.
@Suite("strata codegen")
struct CodegenCommandTests {
    /// A model with one entity of each setting: a class, an extension, and one written by hand.
    static let contents = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Note" representedClassName="Note" syncable="YES" codeGenerationType="class">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="pinned" attributeType="Boolean" defaultValueString="NO"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag" representedClassName="App.TagObject" syncable="YES" codeGenerationType="category">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/>
        </entity>
        <entity name="Folder" representedClassName="Folder" syncable="YES">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
    </model>
    """

    private func modelFolder(_ scratch: Scratch) throws -> String {
        let folder = scratch.path("Notes.xcdatamodel")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(Self.contents.utf8).write(to: URL(fileURLWithPath: folder + "/contents"))
        return folder
    }

    @Test("Class Definition gets a class, Category/Extension an extension, Manual/None nothing")
    func settingsRespected() throws {
        let scratch = try Scratch()
        let model = try modelFolder(scratch)
        let result = try scratch.run(["codegen", model, "--output", "out"])
        #expect(result.status == 0, "\(result)")
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path("out")).sorted()
        #expect(files == ["Note.swift", "NotesClasses.swift", "TagObject+Properties.swift"])
        let note = String(decoding: try scratch.read(scratch.path("out/Note.swift")), as: UTF8.self)
        #expect(note.hasPrefix(GeneratedFile.header))
        #expect(note.contains("public final class Note: ManagedObject, ModelKeyPaths, Managed {"))
        #expect(note.contains("public var tags: Set<TagObject> {"))
        #expect(note.contains("public var pinned: Bool {"))
        let tag = String(decoding: try scratch.read(scratch.path("out/TagObject+Properties.swift")), as: UTF8.self)
        #expect(tag.contains("extension TagObject {") && !tag.contains("class TagObject:"))

        let all = try scratch.run(["codegen", model, "--output", "all", "--all-entities"])
        #expect(all.status == 0, "\(all)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("all")).sorted()
                == ["Folder.swift", "Note.swift", "NotesClasses.swift", "TagObject+Properties.swift"])
    }

    @Test("A file not written by codegen is refused unless --force; stale generated files are removed")
    func neverReplacesHandWrittenFiles() throws {
        let scratch = try Scratch()
        let model = try modelFolder(scratch)
        try FileManager.default.createDirectory(atPath: scratch.path("out"), withIntermediateDirectories: true)
        let mine = "// my own Note\nfinal class Note {}\n"
        try scratch.write(mine, to: "out/Note.swift")
        let refused = try scratch.run(["codegen", model, "--output", "out"])
        #expect(refused.status == 2, "\(refused)")
        #expect(refused.stderr.contains("Note.swift") && refused.stderr.contains("--force"), "\(refused)")
        #expect(String(decoding: try scratch.read(scratch.path("out/Note.swift")), as: UTF8.self) == mine)
        #expect(!scratch.exists(scratch.path("out/NotesClasses.swift")))

        // A generated file of an entity no longer generated goes; one written by hand stays.
        try scratch.write(GeneratedFile.header + "\nfinal class Old {}\n", to: "out/Old.swift")
        try scratch.write("final class Kept {}\n", to: "out/Kept.swift")
        let forced = try scratch.run(["codegen", model, "--output", "out", "--force"])
        #expect(forced.status == 0, "\(forced)")
        #expect(String(decoding: try scratch.read(scratch.path("out/Note.swift")), as: UTF8.self).hasPrefix(GeneratedFile.header))
        #expect(!scratch.exists(scratch.path("out/Old.swift")))
        #expect(scratch.exists(scratch.path("out/Kept.swift")))

        // Run again: nothing changes, nothing is rewritten.
        let again = try scratch.run(["codegen", model, "--output", "out"])
        #expect(again.status == 0 && again.stdout.contains("0 written"), "\(again)")
    }

    @Test("A model that cannot be read, or two entities of one class name, is refused with its reason")
    func badModels() throws {
        let scratch = try Scratch()
        let missing = try scratch.run(["codegen", scratch.path("None.xcdatamodel"), "--output", "out"])
        #expect(missing.status == 2 && missing.stderr.contains("None.xcdatamodel"), "\(missing)")
        let folder = scratch.path("Twice.xcdatamodel")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let twice = Self.contents.replacingOccurrences(of: "representedClassName=\"Folder\"", with: "representedClassName=\"Note\"")
        try Data(twice.utf8).write(to: URL(fileURLWithPath: folder + "/contents"))
        let clash = try scratch.run(["codegen", folder, "--output", "out", "--all-entities"])
        #expect(clash.status == 2, "\(clash)")
        #expect(clash.stderr.contains("Folder, Note") && clash.stderr.contains("class Note"), "\(clash)")
        #expect(!scratch.exists(scratch.path("out/Note.swift")))
    }
}
