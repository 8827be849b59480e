import Foundation

// Random predicates over ``PredicateFixture``, shared by the store conformance suite's property
// test and the SQLite translation tests.

/// Builds random predicate formats over the fixture's entities from a random generator.
public struct PredicateMaker {
    /// Where the randomness comes from.
    public var rng: any RandomNumberGenerator

    /// A maker drawing from `rng`.
    public init(rng: any RandomNumberGenerator) { self.rng = rng }

    /// A random entity of the fixture (Person most often) and a random predicate format on it.
    public mutating func randomPredicate() -> (entity: String, format: String) {
        let entity = ["Person", "Person", "Person", "Company", "Pet", "Task"][int(6)]
        return (entity, predicate(for: entity, depth: 0))
    }

    /// A random number below `upper`.
    public mutating func int(_ upper: Int) -> Int { Int(rng.next() % UInt64(upper)) }
    mutating func pick<T>(_ items: [T]) -> T { items[int(items.count)] }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }

    enum Kind { case integer, double, decimal, date, bool, string, data }

    /// Attributes by entity.
    static let attributes: [String: [(String, Kind)]] = [
        "Person": [("age", .integer), ("height", .double), ("salary", .decimal), ("born", .date), ("active", .bool),
                   ("name", .string), ("nickname", .string), ("photo", .data)],
        "Company": [("name", .string), ("city", .string), ("founded", .date), ("revenue", .decimal)],
        "Pet": [("name", .string), ("species", .string), ("legs", .integer)],
        "Task": [("name", .string), ("priority", .integer), ("done", .bool), ("due", .date)],
    ]
    static let toOne: [String: [(String, String)]] = [
        "Person": [("employer", "Company"), ("manager", "Person")],
        "Pet": [("owner", "Person")],
        "Task": [("assignee", "Person")],
        "Company": [],
    ]
    static let toMany: [String: [(String, String)]] = [
        "Person": [("pets", "Pet"), ("tasks", "Task"), ("reports", "Person")],
        "Company": [("employees", "Person")],
        "Pet": [], "Task": [],
    ]

    public mutating func predicate(for entity: String, depth: Int) -> String {
        let roll = int(100)
        if depth < 3, roll < 15 { return "(\(predicate(for: entity, depth: depth + 1)) AND \(predicate(for: entity, depth: depth + 1)))" }
        if depth < 3, roll < 27 { return "(\(predicate(for: entity, depth: depth + 1)) OR \(predicate(for: entity, depth: depth + 1)))" }
        if depth < 3, roll < 33 { return "NOT (\(predicate(for: entity, depth: depth + 1)))" }
        if roll < 35 { return pick(["TRUEPREDICATE", "FALSEPREDICATE"]) }
        return comparison(for: entity, depth: depth)
    }

    mutating func comparison(for entity: String, depth: Int) -> String {
        let roll = int(100)
        let toOnes = Self.toOne[entity] ?? []
        let toManys = Self.toMany[entity] ?? []
        if roll < 45 || (toOnes.isEmpty && toManys.isEmpty) {
            return attributeComparison(prefix: "", entity: entity, modifier: "")
        }
        if roll < 65, !toOnes.isEmpty {
            let (key, destination) = pick(toOnes)
            if chance(20) { return "\(key) \(pick(["==", "!="])) nil" }
            return attributeComparison(prefix: key + ".", entity: destination, modifier: "")
        }
        if toManys.isEmpty { return attributeComparison(prefix: "", entity: entity, modifier: "") }
        let (key, destination) = pick(toManys)
        switch int(5) {
        case 0:
            return attributeComparison(prefix: key + ".", entity: destination, modifier: pick(["ANY ", "ALL ", "NONE ", "SOME ", ""]))
        case 1:
            return "\(key).@count \(pick(["==", "<", ">=", "!="])) \(int(4))"
        case 2:
            let numeric = (Self.attributes[destination] ?? []).filter { $0.1 == .integer || $0.1 == .double || $0.1 == .decimal }
            guard !numeric.isEmpty else { return "\(key).@count > 0" }
            let (attribute, _) = pick(numeric)
            return "\(key).\(pick(["@sum", "@max", "@min", "@avg"])).\(attribute) \(pick(["==", "<", ">", "<=", ">="])) \(pick(["0", "2", "3.5", "4", "30", "5000.5"]))"
        case 3 where depth < 3:
            let variable = pick(["x", "item"])
            let inner = predicate(for: destination, depth: depth + 1)
            return "SUBQUERY(\(key), $\(variable), \(inner)).@count \(pick(["==", ">", ">=", "<"])) \(int(3))"
        default:
            if key == "tasks", chance(60) {
                let index = pick(["FIRST", "LAST", "0", "1", "SIZE"])
                if index == "SIZE" { return "\(key)[SIZE] \(pick(["==", ">", "<="])) \(int(4))" }
                let (attribute, kind) = pick(Self.attributes["Task"] ?? [])
                return "\(key)[\(index)].\(attribute) \(pick(["==", "!=", "<", ">="])) \(constant(kind))"
            }
            return "\(key).@count == 0 OR ANY \(key).name \(pick(["BEGINSWITH", "CONTAINS", "==", "LIKE"]))\(options()) \(constant(.string))"
        }
    }

    mutating func attributeComparison(prefix: String, entity: String, modifier: String) -> String {
        let (attribute, kind) = pick(Self.attributes[entity] ?? [("name", .string)])
        let left = prefix + attribute
        switch kind {
        case .string:
            let operation = pick(["==", "!=", "<", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "IN"])
            if operation == "IN" {
                return chance(50)
                    ? "\(modifier)\(left) IN\(options()) {\(constant(.string)), \(constant(.string))}"
                    : "\(constant(.string)) IN\(options()) \(left)"
            }
            if operation == "MATCHES" { return "\(modifier)\(left) MATCHES\(options()) \(pick(Self.patterns))" }
            if operation == "LIKE" { return "\(modifier)\(left) LIKE\(options()) \(pick(Self.wildcards))" }
            return "\(modifier)\(left) \(operation)\(options()) \(constant(.string))"
        case .bool:
            return "\(modifier)\(left) \(pick(["==", "!="])) \(constant(.bool))"
        case .data:
            return "\(modifier)\(left) \(pick(["==", "!=", "<", ">="])) \(constant(.data))"
        default:
            let operation = pick(["==", "!=", "<", "<=", ">", ">=", "BETWEEN", "IN"])
            if operation == "BETWEEN" { return "\(modifier)\(left) BETWEEN {\(constant(kind)), \(constant(kind))}" }
            if operation == "IN" { return "\(modifier)\(left) IN {\(constant(kind)), \(constant(kind)), \(constant(kind))}" }
            return "\(modifier)\(left) \(operation) \(constant(kind))"
        }
    }

    mutating func options() -> String { pick(["", "", "", "[c]", "[d]", "[cd]", "[n]"]) }

    static let strings = [
        "'Alice'", "'alice'", "'Bob'", "'Chloe'", "'Chlo\u{E9}'", "'Chloe\u{301}'", "'Ren\u{E9}'", "'Rene\u{301}'", "'e'",
        "'E'", "'Дмитрий'", "'ми'", "'STRASSE'", "'stra\u{DF}e'", "'ss'", "'\u{131}lker'", "'ilker'", "''", "'Acme'",
        "'Saint-\u{C9}tienne'", "'saint-etienne'", "'K\u{F6}ln'", "'dog'", "'DOG'", "'Write'", "'a'", "'o'", "nil",
    ]
    static let patterns = ["'A.*'", "'.*e'", "'[A-Z][a-z]+'", "'.{3}'", "'.*(ss|ß).*'", "'(?i)s.*'", "'.*'"]
    static let wildcards = ["'A*'", "'*e'", "'?o?'", "'*'", "'*ss*'", "'S*'", "'?????'", "'*\u{E9}*'"]

    mutating func constant(_ kind: Kind) -> String {
        if chance(8) { return "nil" }
        switch kind {
        case .integer: return pick(["0", "2", "4", "19", "25", "28", "30", "35", "40", "50", "-1", "30.5", "0x1E"])
        case .double: return pick(["1.6", "1.65", "1.7", "1.75", "1.8", "1.9", "2", "0"])
        case .decimal: return pick(["4000", "5000.5", "6000.25", "100", "CAST('9999.99', 'NSDecimalNumber')", "250.25", "0"])
        case .date: return "CAST(\(pick(["0", "86400", "-86400", "500", "1000", "2000", "100000000", "700000000.5", "1000000000"])), 'NSDate')"
        case .bool: return pick(["YES", "NO", "TRUE", "FALSE", "1", "0"])
        case .string: return pick(Self.strings)
        case .data: return pick(["CAST('AQI=', 'NSData')", "CAST('AQM=', 'NSData')", "CAST('', 'NSData')", "CAST('/w==', 'NSData')"])
        }
    }
}
