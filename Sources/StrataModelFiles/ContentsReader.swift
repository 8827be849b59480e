import Foundation
import StrataCore

/// Turns the element tree of one `contents` file into a model, collecting warnings and the lines
/// of entities and properties so that a ``ModelError`` can be pinned to a line.
struct ContentsReader {
    /// The path named in errors and warnings.
    let file: String
    /// What was skipped, in file order.
    private(set) var warnings: [ModelFileWarning] = []

    /// Entity name → line of its `<entity>` (the last one, for a duplicate).
    var entityLines: [String: Int] = [:]
    /// Xcode's code generation setting of each entity that has one (`codeGenerationType`).
    var codeGeneration: [String: EntityCodeGeneration] = [:]
    /// Entity name → property name → line of its element.
    var propertyLines: [String: [String: Int]] = [:]
    /// Configuration name → line.
    var configurationLines: [String: Int] = [:]
    /// Fetch request template name → line.
    var templateLines: [String: Int] = [:]
    /// The model's `<composite name>` definitions, by name.
    var compositeDefinitions: [String: XMLTree] = [:]

    init(file: String) {
        self.file = file
    }

    // MARK: - The model

    /// The model described by `root`, which must be `<model>`.
    mutating func model(from root: XMLTree) throws(ModelFileError) -> ManagedObjectModel {
        guard root.name == "model" else {
            throw .notAModel(file: file, reason: "the root element is <\(root.name)>, not <model>")
        }
        checkAttributes(of: root, known: ["userDefinedModelVersionIdentifier"], ignored: Vocabulary.modelIgnored)

        compositeDefinitions = [:]
        for child in root.children where child.name == "composite" {
            compositeDefinitions[try required("name", of: child)] = child
        }
        var entities: [EntityDescription] = []
        var configurations: [String: [String]] = [:]
        var templates: [String: FetchRequestTemplate] = [:]
        for child in root.children {
            switch child.name {
            case "entity":
                entities.append(try entity(from: child))
            case "fetchRequest":
                let template = try fetchRequestTemplate(from: child)
                templates[template.name] = template
                templateLines[template.name] = child.line
            case "configuration":
                let (name, members) = try configuration(from: child)
                configurations[name] = members
                configurationLines[name] = child.line
            case "elements":
                break  // the diagram layout: nothing of the model
            case "composite":
                break  // read where an attribute uses it
            default:
                warn(child, .unknownElement(element: child.name, parent: root.name))
            }
        }
        entities = droppingUnresolvableReferences(in: entities)

        var versionIdentifiers: Set<String> = []
        if let identifier = root.attributes["userDefinedModelVersionIdentifier"] {
            versionIdentifiers.insert(identifier)  // Core Data keeps an empty identifier too
        }
        do {
            return try ManagedObjectModel(
                entities: entities, configurations: configurations, fetchRequestTemplates: templates,
                versionIdentifiers: versionIdentifiers)
        } catch let error as ModelError {
            throw .invalidModel(file: file, line: line(of: error), error)
        } catch {
            throw .notAModel(file: file, reason: "\(error)")
        }
    }

    /// `<fetchRequest name entity predicateString/>` at the top level.
    private mutating func fetchRequestTemplate(from node: XMLTree) throws(ModelFileError) -> FetchRequestTemplate {
        checkAttributes(of: node, known: ["name", "entity", "predicateString"])
        checkNoChildren(of: node)
        let name = try required("name", of: node)
        let entity = try required("entity", of: node)
        return FetchRequestTemplate(name: name, entityName: entity, predicateFormat: node.attributes["predicateString"])
    }

    /// `<configuration name><memberEntity name/>…</configuration>`.
    private mutating func configuration(from node: XMLTree) throws(ModelFileError) -> (String, [String]) {
        checkAttributes(of: node, known: ["name"], flags: ["usedWithCloudKit": "CloudKit sync (usedWithCloudKit)"])
        let name = try required("name", of: node)
        var members: [String] = []
        for child in node.children {
            guard child.name == "memberEntity" else {
                warn(child, .unknownElement(element: child.name, parent: node.name))
                continue
            }
            checkAttributes(of: child, known: ["name"])
            checkNoChildren(of: child)
            members.append(try required("name", of: child))
        }
        return (name, members)
    }

    // MARK: - Constraints and indexes naming no property

    /// Removes uniqueness constraints and index elements that name a property the entity (with its
    /// ancestors) does not have, such as an attribute skipped for its type or a placeholder left by
    /// the model editor, with a warning each, so the model still checks. An index left with no
    /// element is removed too.
    private mutating func droppingUnresolvableReferences(in entities: [EntityDescription]) -> [EntityDescription] {
        var byName: [String: EntityDescription] = [:]
        for entity in entities { byName[entity.name] = entity }
        return entities.map { entity in
            var known: Set<String> = []
            var current: String? = entity.name
            var seen: Set<String> = []
            while let name = current, seen.insert(name).inserted, let each = byName[name] {
                known.formUnion(each.declaredProperties.map(\.name))
                current = each.superentityName
            }
            var entity = entity
            let line = entityLines[entity.name]
            entity.uniquenessConstraints = entity.uniquenessConstraints.filter { constraint in
                let unknown = constraint.filter { !known.contains($0) }
                for property in unknown {
                    warn(line: line, .droppedReference(entity: entity.name, property: property, from: "a uniqueness constraint"))
                }
                return unknown.isEmpty
            }
            entity.indexes = entity.indexes.compactMap { index in
                var index = index
                index.elements = index.elements.filter { element in
                    guard !known.contains(element.property) else { return true }
                    warn(line: line, .droppedReference(entity: entity.name, property: element.property, from: "index '\(index.name)'"))
                    return false
                }
                guard !index.elements.isEmpty else {
                    warn(line: line, .droppedIndex(entity: entity.name, index: index.name))
                    return nil
                }
                return index
            }
            return entity
        }
    }

    // MARK: - Errors and warnings

    /// The line of what a model error is about.
    private func line(of error: ModelError) -> Int? {
        switch error {
        case .emptyName(let entity), .duplicateEntity(let entity), .unknownParent(let entity, _),
            .unknownConstraintProperty(let entity, _):
            return entityLines[entity]
        case .cyclicInheritance(let entities):
            return entities.first.flatMap { entityLines[$0] }
        case let .duplicateProperty(entity, property), let .unknownInverse(entity, property, _),
            let .inverseMismatch(entity, property, _), let .invalidDefaultValue(entity, property),
            let .invalidCount(entity, property), let .unsupportedDerivation(entity, property, _, _),
            let .invalidCompositeElement(entity, property, _, _):
            return propertyLines[entity]?[property] ?? entityLines[entity]
        case let .unknownDestination(entity, property, _):
            return propertyLines[entity]?[property] ?? templateLines[property] ?? entityLines[entity]
        case let .unknownConfigurationEntity(configuration, _):
            return configurationLines[configuration]
        }
    }

    /// Records a warning at `node`'s line.
    mutating func warn(_ node: XMLTree, _ kind: ModelFileWarning.Kind) {
        warn(line: node.line, kind)
    }

    /// Records a warning at `line`.
    mutating func warn(line: Int?, _ kind: ModelFileWarning.Kind) {
        warnings.append(ModelFileWarning(file: file, line: line, kind: kind))
    }

    /// The value of a required attribute, which must not be empty.
    func required(_ attribute: String, of node: XMLTree) throws(ModelFileError) -> String {
        guard let value = node.attributes[attribute], !value.isEmpty else {
            throw .missingAttribute(file: file, line: node.line, element: node.name, attribute: attribute)
        }
        return value
    }

    /// A Boolean attribute (`YES`/`NO`), `defaultValue` when absent or unreadable (with a warning).
    mutating func flag(_ attribute: String, of node: XMLTree, default defaultValue: Bool = false) -> Bool {
        guard let text = node.attributes[attribute] else { return defaultValue }
        guard let value = ModelFileValues.boolean(text) else {
            warn(node, .invalidValue(element: node.name, attribute: attribute, value: text))
            return defaultValue
        }
        return value
    }

    /// Warns about every attribute of `node` that is neither `known` nor `ignored`: for one in
    /// `flags` (attribute → feature) only when it is not `NO`, for one in `unsupported` always (as
    /// an unsupported feature), for any other as unknown.
    mutating func checkAttributes(
        of node: XMLTree, known: Set<String>, ignored: Set<String> = [], flags: [String: String] = [:],
        unsupported: [String: String] = [:]
    ) {
        for attribute in node.attributes.keys.sorted() where !known.contains(attribute) && !ignored.contains(attribute) {
            if let feature = flags[attribute] {
                if ModelFileValues.boolean(node.attributes[attribute] ?? "") != false {
                    warn(node, .unsupportedFeature(element: node.name, feature: feature))
                }
            } else if let feature = unsupported[attribute] {
                warn(node, .unsupportedFeature(element: node.name, feature: feature))
            } else {
                warn(node, .unknownAttribute(element: node.name, attribute: attribute))
            }
        }
    }

    /// Warns about (and skips) every child of an element that should have none.
    mutating func checkNoChildren(of node: XMLTree) {
        for child in node.children {
            warn(child, .unknownElement(element: child.name, parent: node.name))
        }
    }
}
