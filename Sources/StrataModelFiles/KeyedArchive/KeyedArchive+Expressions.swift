import Foundation

extension KeyedArchive {
    /// The root, read as an `NSExpression`.
    ///
    /// - Throws: ``PlistError`` when the root is no readable expression.
    package func expression() throws(PlistError) -> ArchivedExpression {
        try expression(root, depth: 0)
    }

    /// The `NSExpression` a value stands for, `depth` references below the root.
    ///
    /// - Throws: ``PlistError`` for a missing or malformed expression, or one nested deeper than
    ///   ``maximumDepth``.
    package func expression(_ value: PlistValue, depth: Int) throws(PlistError) -> ArchivedExpression {
        guard depth <= Self.maximumDepth else { throw PlistError("expressions nested deeper than \(Self.maximumDepth) levels") }
        guard let object = try resolve(value)?.dictionary else { throw PlistError("an expression is missing or not an archived object") }
        let classes = try classes(of: object)
        guard classes.contains("NSExpression") else { throw PlistError("\(classes[0]) is not an NSExpression") }
        switch classes[0] {
        case "NSConstantValueExpression":
            if let className = try string("NSConstantValueClassName", in: object) {
                return .constant(.className(className))
            }
            return .constant(try constant(object["NSConstantValue"], depth: depth + 1))
        case "NSVariableExpression":
            guard let name = try string("NSVariable", in: object) else {
                throw PlistError("a variable expression has no name")
            }
            return .variable(name)
        case "NSSelfExpression":
            return .evaluatedObject
        case "NSKeyPathSpecifierExpression":
            // Only ever an argument of a key path expression; on its own it reads as the path.
            return .keyPath(.evaluatedObject, try keyPath(object))
        case "NSKeyPathExpression":
            let base = try operand(object, depth: depth)
            let arguments = try array(object["NSArguments"] ?? .null)
            guard arguments.count == 1, let specifier = try resolve(arguments[0])?.dictionary,
                  try self.classes(of: specifier).first == "NSKeyPathSpecifierExpression" else {
                throw PlistError("a key path expression without its key path")
            }
            return .keyPath(base, try keyPath(specifier))
        case "NSFunctionExpression":
            let receiver = try operand(object, depth: depth)
            guard let selector = try string("NSSelectorName", in: object) else {
                throw PlistError("a function expression has no selector")
            }
            var arguments: [ArchivedExpression] = []
            if let list = object["NSArguments"], try resolve(list) != nil {
                for argument in try array(list) { arguments.append(try expression(argument, depth: depth + 1)) }
            }
            if case .constant(.className("_NSPredicateUtilities")) = receiver {
                let name = selector.hasSuffix(":") ? String(selector.dropLast()) : selector
                return .builtInFunction(name: name, arguments: arguments)
            }
            return .function(receiver: receiver, selector: selector, arguments: arguments)
        case "NSFetchRequestExpression":
            // Core Data archives the request under NSFRExpression and the context under
            // NSMOCExpression. The count-only flag is not read: a mapping model's source
            // expression, the one place Strata reads these, is never count-only.
            guard let request = object["NSFRExpression"], let context = object["NSMOCExpression"] else {
                throw PlistError("a fetch request expression without its request and context")
            }
            return .fetch(request: try expression(request, depth: depth + 1),
                          context: try expression(context, depth: depth + 1), countOnly: false)
        default:
            return .unsupported(className: classes[0])
        }
    }

    private func operand(_ object: [String: PlistValue], depth: Int) throws(PlistError) -> ArchivedExpression {
        guard let operand = object["NSOperand"] else { throw PlistError("a function expression has no operand") }
        return try expression(operand, depth: depth + 1)
    }

    private func keyPath(_ specifier: [String: PlistValue]) throws(PlistError) -> String {
        guard let path = try string("NSKeyPath", in: specifier), !path.isEmpty else {
            throw PlistError("a key path specifier has no key path")
        }
        return path
    }

    private func constant(_ value: PlistValue?, depth: Int) throws(PlistError) -> ArchivedExpression.Constant {
        guard let value, let resolved = try resolve(value) else { return .null }
        if case .dictionary(let object) = resolved, object["$class"] != nil, try classes(of: object).first == "NSFetchRequest" {
            return try fetchRequest(object, depth: depth)
        }
        switch try propertyList(value, depth: depth) {
        case .string(let s): return .string(s)
        case .integer(let i): return .integer(i)
        case .double(let d): return .double(d)
        case .bool(let b): return .bool(b)
        case .data(let d): return .data(d)
        case .date(let date): return .date(date)
        case .array, .dictionary: throw PlistError("a constant that is a collection cannot be read")
        }
    }

    /// An archived `NSFetchRequest`: the entity it fetches (`NSEntityName`, or the name of its
    /// `NSEntity`) and its predicate (`NSPredicate`) in Core Data's format.
    private func fetchRequest(_ request: [String: PlistValue], depth: Int) throws(PlistError) -> ArchivedExpression.Constant {
        var entityName = try string("NSEntityName", in: request)
        if entityName == nil, let entity = request["NSEntity"], let description = try object(entity) {
            entityName = try string("NSEntityName", in: description)
        }
        guard let entityName, !entityName.isEmpty else { throw PlistError("a fetch request that names no entity") }
        var predicate: String?
        if let value = request["NSPredicate"], try resolve(value) != nil {
            predicate = try predicateFormat(value, depth: depth + 1)
        }
        return .fetchRequest(entityName: entityName, predicate: predicate)
    }
}
