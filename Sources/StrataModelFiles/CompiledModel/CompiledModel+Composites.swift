import Foundation
import StrataCore

/// The shape of an entity's composite attributes in a compiled model Strata writes: a key Core
/// Data does not know (``CompiledModelWriter/compositesKey``) on the entity holds it as JSON text,
/// and the elements themselves are archived as plain attributes named by their paths
/// (`magnitude.richter`), so the reader puts the composites back together.
struct CompositeOutline: Codable, Equatable {
    var name: String
    var optional: Bool
    var definitionName: String?
    var renamingIdentifier: String?
    var versionHashModifier: String?
    var userInfo: [String: String]
    var elements: [Element]

    /// An attribute element (its name and own optional flag) or a nested composite.
    struct Element: Codable, Equatable {
        var attribute: String?
        var optional: Bool?
        var composite: CompositeOutline?
    }

    init(_ composite: CompositeAttributeDescription) {
        name = composite.name
        optional = composite.isOptional
        definitionName = composite.definitionName
        renamingIdentifier = composite.renamingIdentifier
        versionHashModifier = composite.versionHashModifier
        userInfo = composite.userInfo
        elements = composite.elements.map { element in
            switch element {
            case .attribute(let attribute): Element(attribute: attribute.name, optional: attribute.isOptional, composite: nil)
            case .composite(let nested): Element(attribute: nil, optional: nil, composite: CompositeOutline(nested))
            }
        }
    }

    /// The composite, its attribute elements taken from `stored` (the archived attributes by
    /// path); nil when one is missing.
    func composite(prefix: String = "", stored: [String: AttributeDescription]) -> CompositeAttributeDescription? {
        let path = prefix + name
        var built: [CompositeAttributeDescription.Element] = []
        for element in elements {
            if let nested = element.composite {
                guard let composite = nested.composite(prefix: path + ".", stored: stored) else { return nil }
                built.append(.composite(composite))
            } else if let name = element.attribute, var attribute = stored[path + "." + name] {
                attribute.name = name
                attribute.isOptional = element.optional ?? attribute.isOptional
                built.append(.attribute(attribute))
            } else {
                return nil
            }
        }
        return CompositeAttributeDescription(
            name: name, isOptional: optional, renamingIdentifier: renamingIdentifier,
            versionHashModifier: versionHashModifier, userInfo: userInfo, definitionName: definitionName, elements: built)
    }

    /// The JSON text of the composites declared by `entity`, nil when it declares none.
    static func text(declaredBy entity: EntityDescription) -> String? {
        var seen: Set<String> = []
        let outlines = entity.declaredProperties.compactMap { $0.attribute?.composite }
            .filter { seen.insert($0.name).inserted }
            .map(CompositeOutline.init)
        guard !outlines.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(outlines)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `properties` with the plain attributes at composite element paths replaced by the
    /// composites `text` outlines (each element in the place of the first).
    static func restoring(_ text: String, in properties: [PropertyDescription], of owner: String) throws(CompiledModelError) -> [PropertyDescription] {
        let outlines: [CompositeOutline]
        do {
            outlines = try JSONDecoder().decode([CompositeOutline].self, from: Data(text.utf8))
        } catch {
            throw .invalidObject(object: owner, reason: "its composite attribute outline does not read: \(error)")
        }
        var stored: [String: AttributeDescription] = [:]
        for case .attribute(let attribute) in properties { stored[attribute.name] = attribute }
        var replacement: [String: CompositeAttributeDescription] = [:]
        for outline in outlines {
            guard let composite = outline.composite(stored: stored) else {
                throw .invalidObject(object: owner, reason: "composite attribute '\(outline.name)' lacks an element attribute")
            }
            for attribute in composite.storedAttributes { replacement[attribute.name] = composite }
        }
        var result: [PropertyDescription] = []
        var placed: Set<String> = []
        for property in properties {
            guard case .attribute(let attribute) = property, let composite = replacement[attribute.name] else {
                result.append(property)
                continue
            }
            if placed.insert(composite.name).inserted {
                result += composite.storedAttributes.map { .attribute($0) }
            }
        }
        return result
    }
}
