import Foundation
import StrataCore
import StrataModelFiles

/// The models the store readers and the JSON importer read their input against.
///
/// A store file or an export document only means something for a model; the readers are run
/// once for each of these, so that both the seeds of the sample School store and those written
/// for the model of every type reach past the entity and property look-ups.
public enum FuzzModels {
    /// The repository's root folder (this file is `Fuzzing/Sources/FuzzSupport/FuzzModels.swift`).
    public static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The sample School model (`Samples/RoundTrip/School.xcdatamodeld`): abstract parent,
    /// inheritance, an ordered to-many, many-to-many, Deny and Cascade rules, value ranges.
    public static let school: ManagedObjectModel = {
        let url = repository.appendingPathComponent("Samples/RoundTrip/School.xcdatamodeld")
        do {
            return try ModelBundle(at: url).currentModel
        } catch {
            fatalError("FuzzSupport: cannot read \(url.path): \(error)")
        }
    }()

    /// A model with an attribute of every type, a self-referential to-one, an ordered
    /// many-to-many and a one-way to-many.
    public static let everyType: ManagedObjectModel = {
        do {
            return try ManagedObjectModel {
                EntityDescription("Thing") {
                    Attribute("i16", .integer16, minimum: -100, maximum: 100)
                    Attribute("i32", .integer32)
                    Attribute("i64", .integer64)
                    Attribute("decimal", .decimal)
                    Attribute("double", .double)
                    Attribute("float", .float)
                    Attribute("string", .string, regularExpression: "[a-z]*")
                    Attribute("flag", .boolean)
                    Attribute("date", .date)
                    Attribute("data", .binaryData)
                    Attribute("uuid", .uuid)
                    Attribute("uri", .uri)
                    Attribute("transformable", .transformable)
                    Relationship("parent", to: "Thing", inverse: "children")
                    Relationship("children", toMany: "Thing", inverse: "parent")
                    Relationship("tags", toMany: "Tag", inverse: "things", ordered: true)
                    Relationship("seen", toMany: "Tag")
                }
                EntityDescription("Tag") {
                    Attribute("name", .string, optional: false)
                    Relationship("things", toMany: "Thing", inverse: "tags", ordered: true)
                }
            }
        } catch {
            fatalError("FuzzSupport: the model of every type does not build: \(error)")
        }
    }()

    /// Both models.
    public static var all: [ManagedObjectModel] { [school, everyType] }
}
