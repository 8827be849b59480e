import StrataModelFiles

extension KeyedArchive {
    /// The outline of an archived `XDPMModel` (Xcode's editing form of a model): every
    /// `XDPMEntity` with its name, abstract flag, owned `XDPMAttribute`s and `XDPMRelationship`s
    /// and the `_general` end of its generalization (the parent).
    func modelOutline() throws(PlistError) -> ModelOutline {
        var entities: [String: ModelOutline.Entity] = [:]
        for object in objects {
            guard case .dictionary(let entity) = object, entity["$class"] != nil,
                  try classes(of: entity).first == "XDPMEntity" else { continue }
            guard let name = try string("_name", in: entity) else { throw PlistError("an entity without a name") }
            var attributes: [String] = []
            var relationships: [String] = []
            if let storage = entity["XDBucketForOwnedAttributesstorage"], let bucket = try resolve(storage)?.dictionary {
                for reference in bucket["NS.objects"]?.array ?? [] {
                    guard let property = try resolve(reference)?.dictionary else { continue }
                    guard let propertyName = try string("_name", in: property) else { throw PlistError("a property of \(name) without a name") }
                    switch try classes(of: property).first {
                    case "XDPMAttribute": attributes.append(propertyName)
                    case "XDPMRelationship": relationships.append(propertyName)
                    default: break
                    }
                }
            }
            var parent: String?
            if let storage = entity["XDBucketForGeneralizationsstorage"], let bucket = try resolve(storage)?.dictionary {
                for reference in bucket["NS.objects"]?.array ?? [] {
                    guard let generalization = try resolve(reference)?.dictionary, let general = generalization["_general"],
                          let parentEntity = try resolve(general)?.dictionary else { continue }
                    parent = try string("_name", in: parentEntity)
                }
            }
            let isAbstract = if case .bool(true)? = entity["_isAbstract"] { true } else { false }
            entities[name] = ModelOutline.Entity(parentName: parent, isAbstract: isAbstract,
                                                 attributeNames: attributes, relationshipNames: relationships)
        }
        return ModelOutline(entities: entities)
    }
}
