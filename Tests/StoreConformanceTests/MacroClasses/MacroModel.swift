import Foundation
import Strata

// Classes written with `@Managed`: a trip log with every kind of property the macro manages.

/// A country: attributes of several types, a unique code, a cascading to-many.
@Managed final class MacroCountry: ManagedObject {
    @Attribute(.unique) var code: String
    var name: String?
    @Attribute(.indexed, minValue: 0) var population: Int64 = 0
    @Relationship(inverse: "country", deleteRule: .cascade) var visits: Set<MacroVisit>
    /// Not in the model: a plain Swift property.
    @Transient var scratch = 0
    let createdInSwift = true
    static let flag = "static"
    var shout: String { (name ?? "").uppercased() }
}

/// A visit: a non-optional date, optional values, a to-one and an ordered to-many.
@Managed(entity: "Visit") final class MacroVisit: ManagedObject {
    var date: Date
    var rating: Int16 = 3
    var note: String?
    var favorite: Bool = false
    var score: Double?
    var photo: Data?
    @Relationship(inverse: "visits") var country: MacroCountry?
    @Relationship(inverse: "visit") var stops: [MacroStop]
}

/// A stop of a visit's ordered itinerary.
@Managed final class MacroStop: ManagedObject {
    var place: String = ""
    /// Bytes, kept in a Binary Data attribute.
    var colors: [UInt8] = []
    var mark: [UInt8]?
    @Relationship(inverse: "stops") var visit: MacroVisit?
}
