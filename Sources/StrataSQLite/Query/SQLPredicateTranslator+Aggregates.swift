import Foundation
@_spi(StoreImplementation) import StrataCore

/// `@sum`, `@avg`, `@min` and `@max` of a to-many's attribute as correlated aggregate subqueries.
///
/// The evaluator reduces the elements' non-nil values (``KeyValueCoding``): `@sum` adds them
/// (0 for none), `@avg` divides the sum, as a Double, by their number (nil for none), `@min` and
/// `@max` keep the least and greatest by its own comparison (nil for none). SQL's aggregates give
/// the same values for integers, and are used there (indexes and SQLite's speed); every other
/// type goes through the aggregates of ``SQLQueryAggregates``, which reduce with the evaluator:
///
/// | operator | SQL's own | ``SQLQueryAggregates`` | in memory |
/// |---|---|---|---|
/// | `@sum` | Integer 16, 32, Boolean: `coalesce(sum(v), 0)` | Decimal (Double, Float: ``SQLRunningDoubleAggregates``) | Integer 64 (an overflow turns the evaluator's sum into a Double), others (it throws) |
/// | `@avg` | Integer 16, 32, Boolean: `CAST(sum(v) AS REAL) / count(v)` | Integer 64, Decimal (Double, Float: ``SQLRunningDoubleAggregates``) | others (it throws) |
/// | `@min`, `@max` | Integers, Boolean: `min(v)`, `max(v)` | Double, Float, Decimal, Date, String, Binary, UUID, URI | transformable |
///
/// SQL's `sum()` is not used for doubles: SQLite ≥ 3.43 compensates the rounding, NaN and −0.0
/// are stored as BLOBs that it reads as 0, and an Integer 64 sum that overflows fails.
extension SQLPredicateTranslator {
    /// `relationship.OPERATION.path` from `owner`: nil when the owner is a nil to-one.
    func aggregate(_ operation: String, of relationship: RelationshipDescription, from owner: SQLRow,
                   path: ArraySlice<Substring>) throws(Untranslatable) -> SQLScalarValue {
        guard !path.isEmpty else { throw Untranslatable("\(operation) of the objects themselves") }
        let hop = try hop(owner, relationship)
        guard case .scalar(let value) = try resolve(path, from: hop.element) else {
            throw Untranslatable("\(operation) of something other than an attribute")
        }
        let summable: Set<AttributeType> = [.integer16, .integer32, .boolean]
        let integers: Set<AttributeType> = [.integer16, .integer32, .integer64, .boolean]
        let inexact: Set<AttributeType> = [.double, .float]
        let v = value.expression
        let reduced: SQLFragment
        let type: AttributeType
        let isOptional: Bool
        switch operation {
        case "@sum" where summable.contains(value.type):
            (reduced, type, isOptional) = ("coalesce(sum(" + v + "), 0)", .integer64, false)
        case "@avg" where summable.contains(value.type):
            (reduced, type, isOptional) = ("CAST(sum(" + v + ") AS REAL) / count(" + v + ")", .double, true)
        case "@min" where integers.contains(value.type), "@max" where integers.contains(value.type):
            (reduced, type, isOptional) = ((operation == "@min" ? "min(" : "max(") + v + ")", value.type, true)
        default:
            // The evaluator's own reduction: the result's type is the one its value encodes as.
            let resultType: AttributeType
            switch (operation, value.type) {
            case ("@sum", let t) where inexact.contains(t): resultType = .double
            case ("@sum", .decimal): resultType = .decimal
            case ("@avg", let t) where inexact.contains(t) || t == .decimal || t == .integer64: resultType = .double
            case ("@min", let t), ("@max", let t):
                guard t != .transformable, t != .objectID else { throw Untranslatable("\(operation) of \(t.rawValue) values") }
                resultType = inexact.contains(t) ? .double : t
            default:
                throw Untranslatable("\(operation) of \(value.type.rawValue) values")
            }
            guard let function = SQLRunningDoubleAggregates.function(operation, of: value.type) ?? SQLQueryAggregates.function(operation) else {
                throw Untranslatable("the operator \(operation)")
            }
            reduced = "\(function)(\(SQLValueType.code(value.type)), " + v + ")"
            (type, isOptional) = (resultType, operation != "@sum")
        }
        let level = hop.element.level
        var sql = "(SELECT " + reduced + " FROM \(hop.from)\(level.joinClauses) WHERE \(hop.link))"
        if owner.isOptional { sql = "CASE WHEN \(owner.alias).Z_PK IS NULL THEN NULL ELSE " + sql + " END" }
        return SQLScalarValue(expression: sql, type: type, isOptional: isOptional || owner.isOptional, column: nil)
    }
}
