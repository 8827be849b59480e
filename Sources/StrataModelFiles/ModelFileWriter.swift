import Foundation
import StrataCore

/// Writes a `ManagedObjectModel` as Xcode's model files: the `contents` XML of one version, an
/// `.xcdatamodel` folder, or a whole `.xcdatamodeld` bundle with its `.xccurrentversion`, so a
/// model made in code opens in Xcode and reads back (``ModelFileReader``) as an equal model.
///
/// ```swift
/// let xml = try ModelFileWriter().contents(of: model)
/// try ModelFileWriter().write(model, toVersionFolder: URL(filePath: "Model.xcdatamodel"))
/// ```
///
/// Entities and properties are written in the model's order; legacy compound indexes are
/// written as fetch indexes. What the format cannot hold is a
/// ``ModelFileError/unrepresentable(what:reason:)``.
public struct ModelFileWriter: Sendable {
    /// `lastSavedToolsVersion` on `<model>`: the Xcode build the file claims to come from.
    public var lastSavedToolsVersion: String
    /// `systemVersion` on `<model>`: the macOS build the file claims to come from.
    public var systemVersion: String
    /// `minimumToolsVersion` on `<model>`.
    public var minimumToolsVersion: String
    /// `sourceLanguage` on `<model>` (`Swift` or `Objective-C`), for Xcode's code generation.
    public var sourceLanguage: String

    /// Creates a writer; the defaults are those of a model saved by Xcode 15.
    public init(
        lastSavedToolsVersion: String = "22522", systemVersion: String = "23F79",
        minimumToolsVersion: String = "Automatic", sourceLanguage: String = "Swift"
    ) {
        self.lastSavedToolsVersion = lastSavedToolsVersion
        self.systemVersion = systemVersion
        self.minimumToolsVersion = minimumToolsVersion
        self.sourceLanguage = sourceLanguage
    }

    // MARK: - Text

    /// The `contents` XML of `model`.
    ///
    /// - Throws: ``ModelFileError/unrepresentable(what:reason:)`` for a model with more than one
    ///   version identifier, a binary, transformable or object-ID default value, or a character
    ///   XML cannot carry.
    public func contents(of model: ManagedObjectModel) throws(ModelFileError) -> String {
        guard model.versionIdentifiers.count <= 1 else {
            throw .unrepresentable(what: "the model's version identifiers",
                                   reason: "a model file holds one identifier, the model has \(model.versionIdentifiers.count)")
        }
        var xml = XMLTextWriter()
        try xml.open("model", [
            "type": "com.apple.IDECoreDataModeler.DataModel",
            "documentVersion": "1.0",
            "lastSavedToolsVersion": lastSavedToolsVersion,
            "systemVersion": systemVersion,
            "minimumToolsVersion": minimumToolsVersion,
            "sourceLanguage": sourceLanguage,
            "userDefinedModelVersionIdentifier": model.versionIdentifiers.first,
        ])
        for entity in model.entities {
            try write(entity, to: &xml)
        }
        try writeCompositeDefinitions(of: model, to: &xml)
        for name in model.fetchRequestTemplates.keys.sorted() {
            guard let template = model.fetchRequestTemplates[name] else { continue }
            try xml.empty("fetchRequest", [
                "name": template.name, "entity": template.entityName, "predicateString": template.predicateFormat,
            ])
        }
        for name in model.configurations.keys.sorted() {
            try xml.open("configuration", ["name": name])
            for member in model.configurations[name] ?? [] {
                try xml.empty("memberEntity", ["name": member])
            }
            xml.close()
        }
        xml.close()
        return xml.text
    }

    private func write(_ entity: EntityDescription, to xml: inout XMLTextWriter) throws(ModelFileError) {
        try xml.open("entity", [
            "name": entity.name,
            "representedClassName": entity.managedObjectClassName,
            "parentEntity": entity.superentityName,
            "isAbstract": entity.isAbstract ? "YES" : nil,
            "elementID": entity.renamingIdentifier,
            "versionHashModifier": entity.versionHashModifier,
            "syncable": "YES",
        ])
        var writtenComposites: Set<String> = []
        for property in entity.declaredProperties {
            switch property {
            case .attribute(let attribute) where attribute.composite != nil:
                // A composite's elements are written once, as the composite, where the first is.
                guard let composite = attribute.composite, writtenComposites.insert(composite.name).inserted else { continue }
                try writeCompositeReference(composite, to: &xml)
            case .attribute(let attribute): try write(attribute, of: entity, to: &xml)
            case .relationship(let relationship): try write(relationship, to: &xml)
            case .fetchedProperty(let fetched): try write(fetched, to: &xml)
            }
        }
        for index in entity.indexes {
            try xml.open("fetchIndex", ["name": index.name])
            for element in index.elements {
                try xml.empty("fetchIndexElement", [
                    "property": element.property, "type": "Binary",
                    "order": element.ascending ? "ascending" : "descending",
                ])
            }
            xml.close()
        }
        if !entity.uniquenessConstraints.isEmpty {
            try xml.open("uniquenessConstraints")
            for constraint in entity.uniquenessConstraints {
                try xml.open("uniquenessConstraint")
                for property in constraint {
                    try xml.empty("constraint", ["value": property])
                }
                xml.close()
            }
            xml.close()
        }
        try write(entity.userInfo, to: &xml)
        xml.close()
    }

    func write(
        _ attribute: AttributeDescription, of entity: EntityDescription, to xml: inout XMLTextWriter
    ) throws(ModelFileError) {
        let isDate = attribute.type == .date
        var defaultText: String?
        if let value = attribute.defaultValue {
            guard let text = ModelFileValues.text(value), value.matches(attribute.type), attribute.type != .transformable else {
                throw .unrepresentable(
                    what: "entity '\(entity.name)', attribute '\(attribute.name)'",
                    reason: "a model file has no way to write a default value of type \(attribute.type.modelFileName)")
            }
            defaultText = text
        }
        let bounds = (attribute.minimum.map(ModelFileValues.text), attribute.maximum.map(ModelFileValues.text))
        let attributes: XMLTextWriter.Attributes = [
            "name": attribute.name,
            "optional": attribute.isOptional ? "YES" : nil,
            "transient": attribute.isTransient ? "YES" : nil,
            "attributeType": attribute.type.modelFileName,
            "minValueString": isDate ? nil : bounds.0,
            "maxValueString": isDate ? nil : bounds.1,
            "minDateTimeInterval": isDate ? bounds.0 : nil,
            "maxDateTimeInterval": isDate ? bounds.1 : nil,
            "defaultValueString": isDate ? nil : defaultText,
            "defaultDateTimeInterval": isDate ? defaultText : nil,
            "regularExpressionString": attribute.regularExpression,
            "valueTransformerName": attribute.valueTransformerName,
            "customClassName": attribute.valueClassName,
            "allowsExternalBinaryDataStorage": attribute.allowsExternalBinaryDataStorage ? "YES" : nil,
            "preserveAfterDeletion": attribute.preservesValueInHistoryOnDeletion ? "YES" : nil,
            "indexed": attribute.isIndexed ? "YES" : nil,
            "derived": attribute.derivationExpression != nil ? "YES" : nil,
            "derivationExpression": attribute.derivationExpression,
            "elementID": attribute.renamingIdentifier,
            "versionHashModifier": attribute.versionHashModifier,
        ]
        try writeProperty("attribute", attributes, userInfo: attribute.userInfo, to: &xml)
    }

    private func write(_ relationship: RelationshipDescription, to xml: inout XMLTextWriter) throws(ModelFileError) {
        // A to-one is maxCount="1"; a to-many is toMany="YES", with maxCount only when bounded.
        let maxCount: String? = relationship.isToMany
            ? (relationship.maxCount == 0 ? nil : String(relationship.maxCount)) : "1"
        let attributes: XMLTextWriter.Attributes = [
            "name": relationship.name,
            "optional": relationship.isOptional ? "YES" : nil,
            "transient": relationship.isTransient ? "YES" : nil,
            "toMany": relationship.isToMany ? "YES" : nil,
            "minCount": relationship.minCount == 0 ? nil : String(relationship.minCount),
            "maxCount": maxCount,
            "deletionRule": relationship.deleteRule.rawValue,
            "ordered": relationship.isOrdered ? "YES" : nil,
            "destinationEntity": relationship.destinationEntityName,
            "inverseName": relationship.inverseName,
            "inverseEntity": relationship.inverseName == nil ? nil : relationship.destinationEntityName,
            "elementID": relationship.renamingIdentifier,
            "versionHashModifier": relationship.versionHashModifier,
        ]
        try writeProperty("relationship", attributes, userInfo: relationship.userInfo, to: &xml)
    }

    private func write(_ fetched: FetchedPropertyDescription, to xml: inout XMLTextWriter) throws(ModelFileError) {
        try xml.open("fetchedProperty", ["name": fetched.name, "optional": "YES", "elementID": fetched.renamingIdentifier])
        try xml.empty("fetchRequest", [
            "name": "fetchedPropertyFetchRequest", "entity": fetched.destinationEntityName,
            "predicateString": fetched.predicateFormat,
        ])
        try write(fetched.userInfo, to: &xml)
        xml.close()
    }

    private func writeProperty(
        _ element: String, _ attributes: XMLTextWriter.Attributes, userInfo: [String: String],
        to xml: inout XMLTextWriter
    ) throws(ModelFileError) {
        if userInfo.isEmpty {
            try xml.empty(element, attributes)
        } else {
            try xml.open(element, attributes)
            try write(userInfo, to: &xml)
            xml.close()
        }
    }

    private func write(_ userInfo: [String: String], to xml: inout XMLTextWriter) throws(ModelFileError) {
        guard !userInfo.isEmpty else { return }
        try xml.open("userInfo")
        for key in userInfo.keys.sorted() {
            try xml.empty("entry", ["key": key, "value": userInfo[key]])
        }
        xml.close()
    }

    // MARK: - Files

    /// Writes the `contents` XML of `model` to the file `url` (replacing it atomically).
    ///
    /// - Throws: ``ModelFileError/writeFailed(file:reason:)`` or any error of ``contents(of:)``.
    public func write(_ model: ManagedObjectModel, toContentsFile url: URL) throws(ModelFileError) {
        try write(Data(contents(of: model).utf8), to: url)
    }

    /// Writes `model` as a version folder (`.xcdatamodel`): the folder, created if needed, and
    /// its `contents` file.
    ///
    /// - Throws: as ``write(_:toContentsFile:)``.
    public func write(_ model: ManagedObjectModel, toVersionFolder url: URL) throws(ModelFileError) {
        let xml = try contents(of: model)
        try createFolder(url)
        try write(Data(xml.utf8), to: url.appendingPathComponent("contents", isDirectory: false))
    }

    /// Writes `bundle` as an `.xcdatamodeld` folder: one `<name>.xcdatamodel` folder per version
    /// and `.xccurrentversion` naming the current one. Other files in the folder are left alone.
    ///
    /// - Throws: as ``write(_:toContentsFile:)``.
    public func write(_ bundle: ModelBundle, to url: URL) throws(ModelFileError) {
        // Render everything first, so that a model that cannot be written leaves no half bundle.
        var rendered: [(String, String)] = []
        for name in bundle.versionNames {
            guard let model = bundle.versions[name] else { continue }
            guard !name.isEmpty, !name.contains("/") else {
                throw .unrepresentable(what: "version '\(name)'", reason: "a version name must be a non-empty file name")
            }
            rendered.append((name, try contents(of: model)))
        }
        try createFolder(url)
        for (name, xml) in rendered {
            let folder = url.appendingPathComponent(name + ModelBundle.versionExtension, isDirectory: true)
            try createFolder(folder)
            try write(Data(xml.utf8), to: folder.appendingPathComponent("contents", isDirectory: false))
        }
        try write(try currentVersionFile(naming: bundle.currentVersionName),
                  to: url.appendingPathComponent(ModelBundle.currentVersionFileName, isDirectory: false))
    }

    /// The `.xccurrentversion` property list naming version `name` (as Xcode writes it: XML, the
    /// folder name with its `.xcdatamodel` extension).
    public func currentVersionFile(naming name: String) throws(ModelFileError) -> Data {
        let plist: [String: Any] = [ModelBundle.currentVersionKey: name + ModelBundle.versionExtension]
        do {
            return try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        } catch {
            throw .unrepresentable(what: "version name '\(name)'", reason: ModelFileReader.reason(error))
        }
    }

    private func createFolder(_ url: URL) throws(ModelFileError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(file: url.path, reason: ModelFileReader.reason(error))
        }
    }

    private func write(_ data: Data, to url: URL) throws(ModelFileError) {
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw .writeFailed(file: url.path, reason: ModelFileReader.reason(error))
        }
    }
}
