import Foundation
@_spi(StoreImplementation) import StrataCore

/// Why a predicate (or part of one) stays in memory: the translator says only what it can say
/// exactly, and otherwise names what stopped it.
struct Untranslatable: Error, CustomStringConvertible {
    var reason: String
    init(_ reason: String) { self.reason = reason }
    var description: String { reason }
}

/// One level of a query: the outer `SELECT` or one `EXISTS`/count subquery, with the joins its
/// `FROM` clause takes for to-one key paths.
final class SQLQueryLevel {
    private(set) var joins: [String] = []
    private var aliases: [String: String] = [:]

    /// The alias of the join `key`, made by `make` the first time.
    func join(_ key: String, make: () -> (alias: String, clause: String)) -> String {
        if let alias = aliases[key] { return alias }
        let made = make()
        aliases[key] = made.alias
        joins.append(made.clause)
        return made.alias
    }

    /// The joins as SQL, each preceded by a space.
    var joinClauses: String { joins.map { " " + $0 }.joined() }

    /// The joins made so far, to go back to when a translation fails half-way.
    var mark: (Int, [String: String]) { (joins.count, aliases) }

    func restore(_ mark: (Int, [String: String])) {
        joins.removeLast(joins.count - mark.0)
        aliases = mark.1
    }
}

/// A row a key path stands on: the fetched row, a to-one's destination, an element of a to-many.
struct SQLRow {
    /// The table alias.
    var alias: String
    /// The entities the row may be: every requested entity for the fetched row, the declared
    /// destination otherwise. A key must be a property of each.
    var entities: [EntityDescription]
    /// The root table.
    var table: SQLiteSchema.Table
    /// Whether the row may be missing (a to-one that is nil): its columns are NULL then.
    var isOptional: Bool
    /// The query level whose `FROM` clause the row is in.
    var level: SQLQueryLevel

    /// The row as an object value.
    var object: SQLObjectValue {
        SQLObjectValue(key: SQLFragment("\(alias).Z_PK"), entityCode: SQLFragment("\(alias).Z_ENT"), table: table.name,
                       isOptional: isOptional)
    }
}

/// A scalar a key path reads: an attribute's column or a count.
struct SQLScalarValue {
    /// SQL giving the stored value, NULL for nil.
    var expression: SQLFragment
    /// The attribute type the value is decoded as (`Integer 64` for counts).
    var type: AttributeType
    /// Whether it may be nil.
    var isOptional: Bool
    /// The table and column it is read from, when it is a plain column.
    var column: (table: String, name: String)?
}

/// An object a key path reaches: SQL for its primary key and entity code (NULL when nil).
struct SQLObjectValue {
    var key: SQLFragment
    var entityCode: SQLFragment
    /// The root table the object's row is in.
    var table: String
    var isOptional: Bool
}

/// The elements a key path through a to-many gives: the destinations of `relationship` from
/// `owner`, each continued by the rest of the path (flattened, nil values left out).
struct SQLCollection {
    var owner: SQLRow
    var relationship: RelationshipDescription
    var rest: [Substring]
}

/// One side of a comparison, translated.
enum SQLTerm {
    case constant(PredicateValue)
    case scalar(SQLScalarValue)
    case object(SQLObjectValue)
    case collection(SQLCollection)
}

/// Translates `ObjectPredicate`s over the rows of one table into SQL conditions that give
/// exactly what the in-memory evaluator gives, or says it cannot.
///
/// Every condition it builds is two-valued (1 or 0, never NULL), so `NOT` means what it means
/// in a predicate. Values are bound, never spliced; names come from the schema. Key paths
/// through to-ones become `LEFT JOIN`s on the destination's root table, key paths through
/// to-manys `EXISTS` subqueries, `@count` and `SUBQUERY(…).@count` correlated counts. What SQL
/// alone cannot compare exactly (strings under canonical equivalence and folding, `LIKE`,
/// `MATCHES`, decimals, UUIDs, …) goes through the functions of ``SQLQueryFunctions``, which
/// ask the in-memory evaluator itself.
final class SQLPredicateTranslator {
    let schema: SQLiteSchema
    let storeIdentifier: String
    /// The fetched row, `t0`.
    let root: SQLRow
    /// The outer query level.
    let top: SQLQueryLevel
    /// When set, what each name stands for in a predicate over computed values (a grouping's
    /// `HAVING`): a key path is one of these names, and nothing is read from a row.
    var resultTerms: [String: SQLTerm]?
    private var aliasCount = 0

    /// A translator over the rows of `entityNames`, or nil when they are not all in one table.
    init?(schema: SQLiteSchema, storeIdentifier: String, entityNames: Set<String>) {
        let entities = entityNames.sorted().compactMap { schema.model.entity(named: $0) }
        guard !entities.isEmpty, entities.count == entityNames.count,
              let table = schema.table(for: entities[0].name),
              entities.allSatisfy({ schema.table(for: $0.name)?.name == table.name }) else { return nil }
        self.schema = schema
        self.storeIdentifier = storeIdentifier
        self.top = SQLQueryLevel()
        self.root = SQLRow(alias: "t0", entities: entities, table: table, isOptional: false, level: top)
    }

    private var model: ManagedObjectModel { schema.model }

    /// A new table alias.
    func newAlias(_ prefix: String = "t") -> String {
        aliasCount += 1
        return "\(prefix)\(aliasCount)"
    }

    /// What a predicate sees: the object `SELF` is, and the rows `SUBQUERY` variables are bound to.
    struct Scope {
        var row: SQLRow
        var variables: [String: SQLRow] = [:]
    }

    // MARK: Predicates

    /// The condition for `predicate` on the fetched row.
    func translate(_ predicate: ObjectPredicate) throws(Untranslatable) -> SQLFragment {
        try translate(predicate, in: Scope(row: root))
    }

    func translate(_ predicate: ObjectPredicate, in scope: Scope) throws(Untranslatable) -> SQLFragment {
        switch predicate {
        case .truePredicate: return .alwaysTrue
        case .falsePredicate: return .alwaysFalse
        case .and(let items):
            guard items.count <= Self.termLimit else { throw Self.tooManyTerms(items.count) }
            var parts: [SQLFragment] = []
            for item in items { parts.append(try translate(item, in: scope)) }
            return .and(parts)
        case .or(let items):
            return .or(try disjuncts(items, in: scope))
        case .not(let item):
            return .not(try translate(item, in: scope))
        case .comparison(let comparison):
            return try translate(comparison, in: scope)
        }
    }

    private func translate(_ comparison: ObjectPredicate.Comparison, in scope: Scope) throws(Untranslatable) -> SQLFragment {
        let left = try term(comparison.left, in: scope)
        let right = try term(comparison.right, in: scope)
        let operation = comparison.operation
        let options = comparison.options
        switch (left, right) {
        case let (.constant(a), .constant(b)):
            var constant = comparison
            constant.left = .constant(a)
            constant.right = .constant(b)
            guard let result = try? ObjectPredicate.comparison(constant).evaluate(with: nil) else {
                throw Untranslatable("the comparison throws")
            }
            return .constant(result)

        case (.scalar, .constant(let value)), (.object, .constant(let value)):
            let test = try self.test(left, operation, options, value)
            return try quantify(comparison.modifier, left, test)

        case (.collection(let collection), .constant(let value)):
            switch comparison.modifier {
            case .any:
                return try anyElement(collection) { element throws(Untranslatable) in
                    if let bare = try bareElementTest(element, operation, options, value, negated: false) { return bare }
                    return .and([present(element), try test(element, operation, options, value)])
                }
            case .all:
                // No element (not nil) fails the test: NOT EXISTS one that fails it.
                return .not(try anyElement(collection) { element throws(Untranslatable) in
                    if let bare = try bareElementTest(element, operation, options, value, negated: true) { return bare }
                    return .and([present(element), .not(try test(element, operation, options, value))])
                })
            case .none:
                return .not(try anyElement(collection) { element throws(Untranslatable) in
                    if let bare = try bareElementTest(element, operation, options, value, negated: false) { return bare }
                    return .and([present(element), try test(element, operation, options, value)])
                })
            case .direct:
                if operation == .contains {
                    // Membership: some element equals the value.
                    return try anyElement(collection) { element throws(Untranslatable) in
                        .and([present(element), try test(element, .equalTo, options, value)])
                    }
                }
                guard operation != .in else { throw Untranslatable("IN with a to-many key path on the left") }
                // Any element; a nil to-one before the to-many gives nil, compared as nil.
                let any = try anyElement(collection) { element throws(Untranslatable) in
                    .and([present(element), try test(element, operation, options, value)])
                }
                guard collection.owner.isOptional, try oracle(.null, operation, value, options) else { return any }
                return .or([SQLFragment("\(collection.owner.alias).Z_PK IS NULL"), any])
            }

        case (.constant(let value), .scalar), (.constant(let value), .object):
            guard comparison.modifier == .direct, !value.isCollection else {
                throw Untranslatable("a constant on the left with a modifier or a collection")
            }
            return try reversedTest(value, operation, options, right)

        case (.constant(let value), .collection(let collection)):
            guard comparison.modifier == .direct, operation == .in, !value.isCollection else {
                throw Untranslatable("a to-many key path on the right of \(operation.rawValue)")
            }
            // Membership: some element equals the value (equality is symmetric).
            return try anyElement(collection) { element throws(Untranslatable) in
                .and([present(element), try test(element, .equalTo, options, value)])
            }

        case (.scalar, .scalar), (.object, .object):
            let test = try pairTest(left, operation, options, right)
            return try quantify(comparison.modifier, left, test)

        default:
            throw Untranslatable("a comparison of these kinds of values")
        }
    }

    /// A modifier over a single value: it ranges over that value, or over nothing when it is nil.
    private func quantify(_ modifier: ObjectPredicate.Modifier, _ term: SQLTerm, _ test: SQLFragment) throws(Untranslatable) -> SQLFragment {
        switch modifier {
        case .direct: return test
        case .any: return .and([present(term), test])
        case .all: return .or([.not(present(term)), test])
        case .none: return .or([.not(present(term)), .not(test)])
        }
    }

    /// The condition that a term is not nil.
    func present(_ term: SQLTerm) -> SQLFragment {
        switch term {
        case .scalar(let value): value.isOptional ? value.expression + " IS NOT NULL" : .alwaysTrue
        case .object(let object): object.isOptional ? object.key + " IS NOT NULL" : .alwaysTrue
        case .constant(let value): .constant(value != .null)
        case .collection: .alwaysTrue
        }
    }

    /// The in-memory answer for two constants.
    func oracle(_ left: PredicateValue, _ operation: ObjectPredicate.Operator, _ right: PredicateValue,
                _ options: StringComparisonOptions) throws(Untranslatable) -> Bool {
        guard let result = PredicateOracle.test(left, operation, right, options: options) else {
            throw Untranslatable("\(operation.rawValue) throws for \(right)")
        }
        return result
    }

    // MARK: Terms

    /// What an expression stands for in SQL.
    func term(_ expression: ObjectExpression, in scope: Scope) throws(Untranslatable) -> SQLTerm {
        if Self.isConstant(expression) {
            guard let value = try? expression.value(with: nil) else { throw Untranslatable("the constant expression throws") }
            return .constant(PredicateValue(value))
        }
        if let resultTerms {
            guard case .keyPath(let name) = expression, let found = resultTerms[name] else {
                throw Untranslatable("\(expression) is not a value of the result")
            }
            return found
        }
        switch expression {
        case .keyPath(let path):
            return try resolve(path, from: scope.row)
        case .evaluatedObject:
            return .object(scope.row.object)
        case .variable(let name):
            guard let row = scope.variables[name] else { throw Untranslatable("the variable $\(name) is not bound") }
            return .object(row.object)
        case .keyPathOf(.variable(let name), let path):
            guard let row = scope.variables[name] else { throw Untranslatable("the variable $\(name) is not bound") }
            return try resolve(path, from: row)
        case .keyPathOf(.subquery(let collection, let variable, let predicate), "@count"),
             .element(.subquery(let collection, let variable, let predicate), .size):
            return .scalar(try subqueryCount(collection, variable, predicate, in: scope))
        case .keyPathOf(.element(let base, let index), let path):
            return try element(base, index, path: path, in: scope)
        case .element(let base, let index):
            return try element(base, index, path: nil, in: scope)
        default:
            throw Untranslatable("the expression \(expression)")
        }
    }

    /// Whether an expression reads nothing of the object it is evaluated on.
    static func isConstant(_ expression: ObjectExpression) -> Bool {
        switch expression {
        case .constant: true
        case .keyPath, .evaluatedObject, .variable, .subquery: false
        case .aggregate(let items): items.allSatisfy(isConstant)
        case .keyPathOf(let base, _): isConstant(base)
        case .element(let base, _): isConstant(base)
        }
    }

    /// The term a dotted key path gives from `row`.
    func resolve(_ path: String, from row: SQLRow) throws(Untranslatable) -> SQLTerm {
        let components = path.split(separator: ".", omittingEmptySubsequences: false)
        guard !path.isEmpty, components.allSatisfy({ !$0.isEmpty }) else { throw Untranslatable("the key path '\(path)'") }
        return try resolve(components[...], from: row)
    }

    func resolve(_ components: ArraySlice<Substring>, from start: SQLRow) throws(Untranslatable) -> SQLTerm {
        var row = start
        var index = components.startIndex
        while index < components.endIndex {
            var name = String(components[index])
            // A composite's element path (`magnitude.richter`) is one stored attribute.
            if let element = row.entities.first?.compositeElement(startingKeyPath: components[index...]) {
                name = element.name
                index += element.count - 1
            }
            let isLast = index == components.endIndex - 1
            switch try property(name, of: row) {
            case .attribute(let attribute):
                guard isLast else { throw Untranslatable("a key after the attribute '\(name)'") }
                guard !attribute.isTransient, let column = row.table.attributeColumns[name] else {
                    throw Untranslatable("the attribute '\(name)' is not stored")
                }
                guard attribute.type != .transformable || attribute.valueTransformerName == nil else {
                    throw Untranslatable("the transformable attribute '\(name)'")
                }
                return .scalar(SQLScalarValue(expression: SQLFragment("\(row.alias).\(column)"), type: attribute.type,
                                              isOptional: true, column: (row.table.name, column)))
            case .relationship(let relationship):
                guard !relationship.isTransient else { throw Untranslatable("the transient relationship '\(name)'") }
                if relationship.isToMany {
                    let rest = Array(components[(index + 1)...])
                    if rest.first == "@count" {
                        guard rest.count == 1 else { throw Untranslatable("a key after @count") }
                        return .scalar(try count(of: relationship, from: row))
                    }
                    if let first = rest.first, first.hasPrefix("@") {
                        return .scalar(try aggregate(String(first), of: relationship, from: row, path: rest.dropFirst()))
                    }
                    return .collection(SQLCollection(owner: row, relationship: relationship, rest: rest))
                }
                row = try join(row, relationship)
                if isLast { return .object(row.object) }
            case .fetchedProperty:
                throw Untranslatable("the fetched property '\(name)'")
            }
            index += 1
        }
        throw Untranslatable("an empty key path")
    }

    /// The property `name` of every entity the row may be; the same one for all.
    private func property(_ name: String, of row: SQLRow) throws(Untranslatable) -> PropertyDescription {
        if name.hasPrefix("@") { throw Untranslatable("the collection operator \(name) here") }
        guard !(schema.sharedPropertyNames[row.table.rootEntity]?.contains(name) ?? false) else {
            throw Untranslatable("'\(name)' is declared by several entities of one table")
        }
        var found: PropertyDescription?
        for entity in row.entities {
            guard let property = entity.propertiesByName[name] else {
                throw Untranslatable("'\(name)' is not a property of \(entity.name)")
            }
            if let found, found != property { throw Untranslatable("'\(name)' differs between entities") }
            found = property
        }
        guard let found else { throw Untranslatable("no entity") }
        return found
    }

    /// The destination row of a to-one, joined once per row and relationship.
    private func join(_ row: SQLRow, _ relationship: RelationshipDescription) throws(Untranslatable) -> SQLRow {
        guard let column = row.table.toOneColumns[relationship.name],
              let destination = model.entity(named: relationship.destinationEntityName),
              let table = schema.tables[destination.rootEntityName] else {
            throw Untranslatable("the to-one '\(relationship.name)' has no column")
        }
        let alias = row.level.join("\(row.alias).\(relationship.name)") {
            let alias = newAlias()
            return (alias, "LEFT JOIN \(table.name) \(alias) ON \(alias).Z_PK = \(row.alias).\(column)")
        }
        return SQLRow(alias: alias, entities: [destination], table: table, isOptional: true, level: row.level)
    }

    /// How to range over the destinations of a to-many of `owner` in a new query level: the
    /// `FROM` clause, the condition that ties a destination to its owner, the destination row and
    /// the order of the relationship (the order the store reads it in).
    struct Hop {
        var element: SQLRow
        var from: String
        var link: String
        var order: [String]
    }

    func hop(_ owner: SQLRow, _ relationship: RelationshipDescription) throws(Untranslatable) -> Hop {
        guard let storage = schema.toMany[owner.entities[0].name]?[relationship.name],
              let destination = model.entity(named: relationship.destinationEntityName),
              let table = schema.tables[destination.rootEntityName] else {
            throw Untranslatable("the to-many '\(relationship.name)' has no storage")
        }
        let level = SQLQueryLevel()
        let alias = newAlias()
        let element = SQLRow(alias: alias, entities: [destination], table: table, isOptional: false, level: level)
        switch storage {
        case let .inverseForeignKey(tableName, column, orderColumn, _):
            return Hop(element: element, from: "\(tableName) \(alias)", link: "\(alias).\(column) = \(owner.alias).Z_PK",
                       order: (orderColumn.map { ["\(alias).\($0)"] } ?? []) + ["\(alias).Z_PK"])
        case let .joinTable(index, reversed):
            let join = schema.joinTables[index]
            let (mine, theirs, order) = reversed
                ? (join.destinationColumn, join.sourceColumn, join.inverseOrderColumn)
                : (join.sourceColumn, join.destinationColumn, join.orderColumn)
            let j = newAlias("j")
            return Hop(element: element, from: "\(join.name) \(j) JOIN \(table.name) \(alias) ON \(alias).Z_PK = \(j).\(theirs)",
                       link: "\(j).\(mine) = \(owner.alias).Z_PK", order: (order.map { ["\(j).\($0)"] } ?? []) + ["\(j).rowid"])
        }
    }

    /// `relationship.@count` from `owner`: nil when the owner is a nil to-one.
    private func count(of relationship: RelationshipDescription, from owner: SQLRow) throws(Untranslatable) -> SQLScalarValue {
        let hop = try hop(owner, relationship)
        var sql = "(SELECT count(*) FROM \(hop.from) WHERE \(hop.link))"
        if owner.isOptional { sql = "CASE WHEN \(owner.alias).Z_PK IS NULL THEN NULL ELSE \(sql) END" }
        return SQLScalarValue(expression: SQLFragment(sql), type: .integer64, isOptional: owner.isOptional, column: nil)
    }

    /// `EXISTS` an element of the collection (flattened through nested to-manys) for which
    /// `condition` holds; `condition` gets the element's value.
    func anyElement(_ collection: SQLCollection,
                    _ condition: (SQLTerm) throws(Untranslatable) -> SQLFragment) throws(Untranslatable) -> SQLFragment {
        let hop = try hop(collection.owner, collection.relationship)
        let inner: SQLTerm = collection.rest.isEmpty
            ? .object(hop.element.object) : try resolve(collection.rest[...], from: hop.element)
        let body: SQLFragment
        if case .collection(let nested) = inner {
            body = try anyElement(nested, condition)
        } else {
            body = try condition(inner)
        }
        if body.isAlwaysFalse { return .alwaysFalse }
        let level = hop.element.level
        return "EXISTS (SELECT 1 FROM \(hop.from)\(level.joinClauses) WHERE \(hop.link)"
            + (body.isAlwaysTrue ? SQLFragment(")") : " AND " + body + ")")
    }

    /// `SUBQUERY(collection, $variable, predicate).@count`: 0 for a nil collection, as in memory.
    private func subqueryCount(_ collection: ObjectExpression, _ variable: String, _ predicate: ObjectPredicate,
                               in scope: Scope) throws(Untranslatable) -> SQLScalarValue {
        guard case .collection(let source) = try term(collection, in: scope), source.rest.isEmpty else {
            throw Untranslatable("SUBQUERY over something other than a to-many relationship")
        }
        let hop = try hop(source.owner, source.relationship)
        var inner = scope
        inner.row = hop.element
        inner.variables[variable] = hop.element
        let condition = try translate(predicate, in: inner)
        let level = hop.element.level
        let sql = "(SELECT count(*) FROM \(hop.from)\(level.joinClauses) WHERE \(hop.link)"
            + (condition.isAlwaysTrue ? SQLFragment(")") : " AND " + condition + ")")
        return SQLScalarValue(expression: sql, type: .integer64, isOptional: false, column: nil)
    }

    /// `collection[FIRST]`, `[LAST]`, `[n]` and `[SIZE]` of a to-many key path, followed by `path`.
    private func element(_ base: ObjectExpression, _ index: ObjectExpression.ElementIndex, path: String?,
                         in scope: Scope) throws(Untranslatable) -> SQLTerm {
        guard case .collection(let source) = try term(base, in: scope), source.rest.isEmpty else {
            throw Untranslatable("an element of something other than a to-many relationship")
        }
        let position: Int64
        var descending = false
        switch index {
        case .size:
            guard path == nil else { throw Untranslatable("a key path after [SIZE]") }
            return .scalar(try count(of: source.relationship, from: source.owner))
        case .first: position = 0
        case .last: position = 0; descending = true
        case .index(let i):
            guard i >= 0 else { return .constant(.null) }
            position = i
        }
        let hop = try hop(source.owner, source.relationship)
        let target: SQLTerm = try path.map { path throws(Untranslatable) in try resolve(path, from: hop.element) }
            ?? .object(hop.element.object)
        let level = hop.element.level
        let order = hop.order.map { $0 + (descending ? " DESC" : "") }.joined(separator: ", ")
        func select(_ expression: SQLFragment) -> SQLFragment {
            "(SELECT " + expression + " FROM \(hop.from)\(level.joinClauses) WHERE \(hop.link) ORDER BY \(order) LIMIT 1 OFFSET "
                + SQLFragment.value(.integer(position)) + ")"
        }
        switch target {
        case .scalar(let value):
            return .scalar(SQLScalarValue(expression: select(value.expression), type: value.type, isOptional: true, column: nil))
        case .object(let object):
            return .object(SQLObjectValue(key: select(object.key), entityCode: select(object.entityCode), table: object.table,
                                          isOptional: true))
        default:
            throw Untranslatable("a collection inside an element")
        }
    }
}

extension PredicateValue {
    var isCollection: Bool {
        if case .array = self { return true }
        return false
    }
}
