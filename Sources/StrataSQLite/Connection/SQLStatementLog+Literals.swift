extension SQLStatementLog {
    /// How many characters of a text literal, or hexadecimal digits of a blob literal, an entry
    /// shows before it abbreviates the rest.
    static let literalLimit = 64

    /// `sql` with every text literal (`'…'`) and blob literal (`X'…'`) longer than
    /// ``literalLimit`` cut to its start, followed by `…'` and a comment giving its full length:
    /// `'It was a dark and …' /* 4096 characters */`, `X'89504E47…' /* 1048576 bytes */`.
    static func abbreviatingLiterals(_ sql: String) -> String {
        let scalars = sql.unicodeScalars
        var result = String.UnicodeScalarView()
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let scalar = scalars[index]
            index = scalars.index(after: index)
            result.append(scalar)
            guard scalar == "'" else { continue }
            // A literal: up to the next quote that is not doubled.
            let isBlob = result.count >= 2 && ["X", "x"].contains(result[result.index(result.endIndex, offsetBy: -2)])
            var content = String.UnicodeScalarView()
            var length = 0
            while index != scalars.endIndex {
                let next = scalars[index]
                index = scalars.index(after: index)
                if next == "'" {
                    guard index != scalars.endIndex, scalars[index] == "'" else { break }
                    index = scalars.index(after: index)
                    if length < literalLimit { content.append(contentsOf: "''".unicodeScalars) }
                    length += 1
                    continue
                }
                if length < literalLimit { content.append(next) }
                length += 1
            }
            result.append(contentsOf: content)
            if length > literalLimit {
                let unit = isBlob ? "bytes" : "characters"
                result.append(contentsOf: "…' /* \(isBlob ? length / 2 : length) \(unit) */".unicodeScalars)
            } else {
                result.append("'")
            }
        }
        return String(result)
    }
}
