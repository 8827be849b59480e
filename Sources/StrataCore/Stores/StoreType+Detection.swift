import Foundation

extension StoreType {
    /// The first bytes of a binary store file (see `docs/formats/binary.md`).
    public static let binaryMagic: [UInt8] = [0x89, 0x53, 0x54, 0x52, 0x42, 0x0D, 0x0A, 0x1A]  // \x89 S T R B \r \n \x1A
    /// The first bytes of every SQLite database file.
    public static let sqliteMagic: [UInt8] = Array("SQLite format 3\u{0}".utf8)

    /// The store type of the file at `url`, told from its first bytes, not its name; nil when
    /// the content is of no known store type (or the file is empty).
    ///
    /// - Throws: ``StoreError/io(file:operation:reason:)`` when the file cannot be read.
    public static func detect(at url: URL) throws -> StoreType? {
        // A file an SQLite connection of this process holds is an SQLite database, and is not
        // opened here: closing the descriptor would drop that connection's locks
        // (``HeldDatabaseFiles``).
        if HeldDatabaseFiles.shared.holds(path: url.path) { return .sqlite }
        let head: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            head = try handle.read(upToCount: 4096) ?? Data()
        } catch {
            throw StoreError.io(file: url.path, operation: "read", reason: error.localizedDescription)
        }
        let bytes = [UInt8](head)
        if bytes.starts(with: sqliteMagic) { return .sqlite }
        if bytes.starts(with: binaryMagic) { return .binary }
        if looksLikeXMLStore(bytes) { return .xml }
        return nil
    }

    /// An XML document (optional BOM, whitespace, declaration, doctype, comments) whose root
    /// element is `<database>`.
    private static func looksLikeXMLStore(_ bytes: [UInt8]) -> Bool {
        var text = bytes
        if text.starts(with: [0xEF, 0xBB, 0xBF]) { text.removeFirst(3) }
        guard let string = String(bytes: text, encoding: .utf8) ?? String(bytes: text.prefix(while: { $0 < 0x80 }), encoding: .ascii) else {
            return false
        }
        var rest = Substring(string)
        while true {
            rest = rest.drop(while: \.isWhitespace)
            // Comments and processing instructions end at their own terminator (a '>' inside
            // them does not end them); a DOCTYPE ends at the '>' outside quotes and brackets.
            let terminator = rest.hasPrefix("<!--") ? "-->" : rest.hasPrefix("<?") ? "?>" : nil
            if let terminator {
                guard let end = rest.range(of: terminator) else { return false }
                rest = rest[end.upperBound...]
                continue
            }
            if rest.hasPrefix("<!") {
                guard let end = declarationEnd(rest) else { return false }
                rest = rest[rest.index(after: end)...]
                continue
            }
            return rest.hasPrefix("<database>") || rest.hasPrefix("<database ")
        }
    }

    /// The index of the '>' that closes the declaration at the start of `text`.
    private static func declarationEnd(_ text: Substring) -> Substring.Index? {
        var quote: Character?
        var brackets = 0
        for index in text.indices {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "[" {
                brackets += 1
            } else if character == "]" {
                brackets -= 1
            } else if character == ">", brackets <= 0 {
                return index
            }
        }
        return nil
    }
}

extension PersistentStoreCoordinator {
    /// The metadata of the store file at `url` of `type`, read without loading its objects.
    ///
    /// - Throws: ``StoreError`` for an unknown type, a missing file or a damaged one.
    public static func metadataForPersistentStore(ofType type: StoreType, at url: URL) throws -> [String: PropertyListValue] {
        try type.readMetadata(at: url)
    }
}
