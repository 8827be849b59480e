import ArgumentParser
import Collections
import Foundation
import Strata
import StrataJSON

/// How `strata query` prints the objects it found.
enum QueryFormat: String, CaseIterable, ExpressibleByArgument {
    /// The `objects` array of the export document, one object a line (the default).
    case json
    /// One export object a line, with nothing around them (newline-delimited JSON).
    case ndjson
    /// Aligned columns with a header and a rule, for a terminal.
    case table
    /// Comma-separated values (RFC 4180): a header row, fields quoted when they hold a comma, a
    /// double quote or a line break, lines ending CRLF.
    case csv
}

/// The objects a query found, as text in a ``QueryFormat``, with the columns chosen.
///
/// Objects come as the export document writes them (`entity`, `ref`, `attributes`,
/// `relationships`). A column is `entity`, `ref`, or an attribute or relationship name. In JSON
/// and NDJSON, chosen columns keep only those attributes and relationships (`entity` and `ref`
/// stay); in a table or CSV they are the columns, in order. A cell is a string's text, a
/// number's literal, `true`/`false`, the refs of a to-many separated by spaces, compact JSON
/// for other values, and empty for null or a property the object's entity lacks.
struct QueryOutput {
    /// The format.
    var format: QueryFormat
    /// The columns: the chosen ones, or all of the entity's.
    var columns: [String]
    /// Whether the columns were chosen (`--columns`).
    var chosen: Bool

    /// The output for a fetch of `entityName` (sub-entities included) with `--columns` `list`.
    ///
    /// - Throws: ``CommandFailure`` naming a column the entity and its sub-entities lack.
    init(format: QueryFormat, columns list: String?, entityName: String, model: ManagedObjectModel) throws {
        self.format = format
        var known = OrderedSet<String>()
        for name in model.entityAndDescendants(of: entityName) {
            guard let entity = model.entity(named: name) else { continue }
            for attribute in entity.attributes.sorted(by: { $0.name < $1.name }) where !attribute.isTransient { known.append(attribute.name) }
        }
        for name in model.entityAndDescendants(of: entityName) {
            guard let entity = model.entity(named: name) else { continue }
            for relationship in entity.relationships.sorted(by: { $0.name < $1.name }) where !relationship.isTransient { known.append(relationship.name) }
        }
        guard let list else {
            columns = ["ref"] + known.elements
            chosen = false
            return
        }
        columns = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        chosen = true
        for column in columns where column != "entity" && column != "ref" && !known.contains(column) {
            throw CommandFailure(column.isEmpty
                ? "--columns \(list): empty column name"
                : "--columns: entity \(entityName) has no attribute or relationship '\(column)' (it has \(known.joined(separator: ", ")))")
        }
    }

    /// `objects` as text, ending with a line break (nothing for no objects in NDJSON).
    func text(of objects: [JSONValue]) -> String {
        switch format {
        case .json: JSONWriter.objectLines(objects.map(narrowed)) + "\n"
        case .ndjson: objects.map { JSONWriter.compact(narrowed($0)) + "\n" }.joined()
        case .table: table(objects.map(cells))
        case .csv: ([columns] + objects.map(cells)).map { $0.map(Self.csvField).joined(separator: ",") + "\r\n" }.joined()
        }
    }

    /// The object with only the chosen attributes and relationships.
    private func narrowed(_ object: JSONValue) -> JSONValue {
        guard chosen, case .object(var members) = object else { return object }
        for group in ["attributes", "relationships"] {
            guard case .object(let values)? = members[group] else { continue }
            members[group] = .object(values.filter { columns.contains($0.key) })
        }
        return .object(members)
    }

    /// The object's cells, one per column.
    private func cells(_ object: JSONValue) -> [String] {
        guard case .object(let members) = object else { return columns.map { _ in "" } }
        func member(_ group: String, _ name: String) -> JSONValue? {
            guard case .object(let values)? = members[group] else { return nil }
            return values[name]
        }
        return columns.map { column in
            let value = column == "entity" || column == "ref"
                ? members[column]
                : member("attributes", column) ?? member("relationships", column)
            return value.map(Self.cell) ?? ""
        }
    }

    /// A value as a cell's text.
    static func cell(_ value: JSONValue) -> String {
        switch value {
        case .null: ""
        case .bool(let flag): flag ? "true" : "false"
        case .number(let literal): literal
        case .string(let text): text
        case .array(let elements) where elements.allSatisfy({ if case .string = $0 { true } else { false } }):
            elements.map(cell).joined(separator: " ")
        case .array, .object: JSONWriter.compact(value)
        }
    }

    /// A CSV field: quoted (with inner quotes doubled) when it holds a comma, a double quote, a
    /// carriage return or a line feed.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Rows under the column names, each column as wide as its widest cell, a rule of dashes
    /// under the header; line breaks and tabs in a cell shown as `\n`, `\r`, `\t`.
    private func table(_ rows: [[String]]) -> String {
        let shown = ([columns] + rows).map { $0.map(Self.oneLine) }
        var widths = columns.map { _ in 0 }
        for row in shown {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ").replacingOccurrences(of: " +$", with: "", options: .regularExpression) + "\n"
        }
        let rule = line(widths.map { String(repeating: "-", count: $0) })
        return line(shown[0]) + rule + shown.dropFirst().map(line).joined()
    }

    /// `text` on one line.
    private static func oneLine(_ text: String) -> String {
        guard text.contains(where: { $0.isNewline || $0 == "\t" }) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\\r\\n").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\t", with: "\\t")
    }
}
