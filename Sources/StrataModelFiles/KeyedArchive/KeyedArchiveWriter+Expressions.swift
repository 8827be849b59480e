import Foundation
import StrataCore

extension KeyedArchiveWriter {
    /// An archived `NSExpression`.
    package mutating func expression(_ expression: ArchivedExpression) -> PlistValue {
        switch expression {
        case .evaluatedObject:
            return object("NSSelfExpression", ["NSExpressionType": .integer(1)])
        case .variable(let name):
            return object("NSVariableExpression", ["NSExpressionType": .integer(2), "NSVariable": string(name)])
        case .constant(.className(let name)):
            return object("NSConstantValueExpression", ["NSExpressionType": .integer(0), "NSConstantValueClassName": string(name)])
        case .constant(let constant):
            return object("NSConstantValueExpression", ["NSExpressionType": .integer(0), "NSConstantValue": self.constant(constant)])
        case let .keyPath(base, path):
            let specifier = object("NSKeyPathSpecifierExpression", ["NSExpressionType": .integer(10), "NSKeyPath": string(path)])
            return object("NSKeyPathExpression", [
                "NSExpressionType": .integer(base == .evaluatedObject ? 3 : 4), "NSOperand": self.expression(base),
                "NSSelectorName": string(path.contains(".") ? "valueForKeyPath:" : "valueForKey:"),
                "NSArguments": array([specifier], className: "NSMutableArray"),
            ])
        case let .builtInFunction(name, arguments):
            return function(.constant(.className("_NSPredicateUtilities")), selector: arguments.isEmpty ? name : name + ":", arguments)
        case let .function(receiver, selector, arguments):
            return function(receiver, selector: selector, arguments)
        case let .fetch(request, context, _):
            let requestValue = self.expression(request)
            let contextValue = self.expression(context)
            return object("NSFetchRequestExpression", [
                "NSExpressionType": .integer(50), "NSFRExpression": requestValue, "NSMOCExpression": contextValue,
            ])
        case .unsupported:
            return object("NSConstantValueExpression", ["NSExpressionType": .integer(0), "NSConstantValue": KeyedArchiveWriter.null])
        }
    }

    private mutating func function(_ receiver: ArchivedExpression, selector: String, _ arguments: [ArchivedExpression]) -> PlistValue {
        let operand = expression(receiver)
        let items = arguments.map { expression($0) }
        return object("NSFunctionExpression", [
            "NSExpressionType": .integer(4), "NSOperand": operand, "NSSelectorName": string(selector),
            "NSArguments": array(items),
        ])
    }

    private mutating func constant(_ constant: ArchivedExpression.Constant) -> PlistValue {
        switch constant {
        case .null, .className: KeyedArchiveWriter.null
        case .string(let text): string(text)
        case .integer(let number): value(.integer(number))
        case .double(let number): value(.real(number))
        case .bool(let flag): value(.bool(flag))
        case .date(let date): object("NSDate", ["NS.time": .real(date.timeIntervalSinceReferenceDate)])
        case .data(let bytes): value(.data(bytes))
        case let .fetchRequest(entity, format):
            fetchRequest(entity: entity, predicate: format)
        }
    }

    /// An `NSFetchRequest` constant: the entity by name, the predicate archived where Strata
    /// can say it in `NSPredicate`'s terms.
    private mutating func fetchRequest(entity: String, predicate format: String?) -> PlistValue {
        var fields: [String: PlistValue] = ["NSEntityName": string(entity), "NSPredicate": KeyedArchiveWriter.null]
        if let format, let parsed = try? ObjectPredicate(format: format), let archived = predicate(parsed) {
            fields["NSPredicate"] = archived
        }
        return object("NSFetchRequest", fields)
    }

    // MARK: Predicates

    /// `left OPERATOR right` as an `NSComparisonPredicate` with the operator class Core Data
    /// uses for `type` (its `NSPredicateOperatorType`).
    package mutating func comparison(_ left: ArchivedExpression, type: Int64, _ right: ArchivedExpression,
                             modifier: Int64 = 0, options: Int64 = 0) -> PlistValue {
        let className = switch type {
        case 0...3: "NSComparisonPredicateOperator"
        case 4, 5: "NSEqualityPredicateOperator"
        case 6: "NSMatchingPredicateOperator"
        case 7: "NSLikePredicateOperator"
        case 8: "NSBeginsWithPredicateOperator"
        case 9: "NSEndsWithPredicateOperator"
        case 100: "NSBetweenPredicateOperator"
        default: "NSInPredicateOperator"
        }
        var fields: [String: PlistValue] = ["NSOperatorType": .integer(type), "NSModifier": .integer(modifier)]
        switch className {
        case "NSComparisonPredicateOperator": fields["NSOptions"] = .integer(options); fields["NSVariant"] = .integer(type)
        case "NSEqualityPredicateOperator": fields["NSOptions"] = .integer(options); fields["NSNegate"] = .bool(type == 5)
        case "NSInPredicateOperator": fields["NSFlags"] = .integer(options)
        default: fields["NSOptions"] = .integer(options)
        }
        let operation = object(className, fields)
        let leftValue = expression(left)
        let rightValue = expression(right)
        return object("NSComparisonPredicate", [
            "NSLeftExpression": leftValue, "NSRightExpression": rightValue, "NSPredicateOperator": operation,
        ])
    }

    /// A parsed predicate as an archived `NSPredicate`; `nil` when it uses something Strata does
    /// not archive (a subquery, an aggregate, an element index, an object ID).
    package mutating func predicate(_ predicate: ObjectPredicate) -> PlistValue? {
        switch predicate {
        case .truePredicate: return object("NSTruePredicate", [:])
        case .falsePredicate: return object("NSFalsePredicate", [:])
        case .and(let items), .or(let items):
            var parts: [PlistValue] = []
            for item in items {
                guard let part = self.predicate(item) else { return nil }
                parts.append(part)
            }
            let type: Int64 = if case .and = predicate { 1 } else { 2 }
            return object("NSCompoundPredicate", ["NSCompoundPredicateType": .integer(type), "NSSubpredicates": array(parts)])
        case .not(let item):
            guard let part = self.predicate(item) else { return nil }
            return object("NSCompoundPredicate", ["NSCompoundPredicateType": .integer(0), "NSSubpredicates": array([part])])
        case .comparison(let comparison):
            let types: [ObjectPredicate.Operator: Int64] = [
                .lessThan: 0, .lessThanOrEqualTo: 1, .greaterThan: 2, .greaterThanOrEqualTo: 3, .equalTo: 4, .notEqualTo: 5,
                .matches: 6, .like: 7, .beginsWith: 8, .endsWith: 9, .in: 10, .contains: 99, .between: 100,
            ]
            guard let type = types[comparison.operation], let left = KeyedArchiveWriter.expression(comparison.left),
                  let right = KeyedArchiveWriter.expression(comparison.right) else { return nil }
            var options: Int64 = 0
            if comparison.options.contains(.caseInsensitive) { options |= 1 }
            if comparison.options.contains(.diacriticInsensitive) { options |= 2 }
            let modifier: Int64 = switch comparison.modifier {
            case .direct: 0
            case .all: 1
            case .any, .none: 2
            }
            let archived = self.comparison(left, type: type, right, modifier: modifier, options: options)
            guard comparison.modifier == .none else { return archived }
            return object("NSCompoundPredicate", ["NSCompoundPredicateType": .integer(0), "NSSubpredicates": array([archived])])
        }
    }

    /// A predicate's expression as an archived expression's tree; `nil` for one Strata does not 
    package static func expression(_ expression: ObjectExpression) -> ArchivedExpression? {
        switch expression {
        case .keyPath(let path): return .keyPath(.evaluatedObject, path)
        case .evaluatedObject: return .evaluatedObject
        case .variable(let name): return .variable(name)
        case .keyPathOf(let base, let path): return KeyedArchiveWriter.expression(base).map { .keyPath($0, path) }
        case .constant(let value):
            return switch value {
            case .null: .constant(.null)
            case .bool(let flag): .constant(.bool(flag))
            case .integer(let number): .constant(.integer(number))
            case .double(let number): .constant(.double(number))
            case .string(let text): .constant(.string(text))
            case .date(let date): .constant(.date(date))
            case .data(let bytes): .constant(.data(bytes))
            default: nil
            }
        case .aggregate, .element, .subquery: return nil
        }
    }
}
