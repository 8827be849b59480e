import Foundation
import Strata

// `@Managed` classes checked against the Moody model file's `Continent` entity: one that fits,
// and one per kind of mismatch.

/// Fits `Continent` (`countries` leads to the generated `Country` class's entity).
@Managed(entity: "Continent") final class FittingContinent: ManagedObject {
    var numericISO3166Code: Int16 = 0
    @Relationship(inverse: "continent") var countries: Set<Country>
}

/// `numericISO3166Code` is an Integer 16 in the model.
@Managed(entity: "Continent") final class WideCodeContinent: ManagedObject {
    var numericISO3166Code: Int32 = 0
}

/// `numericISO3166Code` is non-optional in the model.
@Managed(entity: "Continent") final class OptionalCodeContinent: ManagedObject {
    var numericISO3166Code: Int16?
}

/// The model's `Continent` has no `name`.
@Managed(entity: "Continent") final class NamedContinent: ManagedObject {
    var name: String?
}

/// `countries` is an unordered to-many in the model.
@Managed(entity: "Continent") final class OrderedContinent: ManagedObject {
    var countries: [Country]
}

/// `countries` is a relationship in the model.
@Managed(entity: "Continent") final class CountingContinent: ManagedObject {
    var countries: Int64 = 0
}

/// `numericISO3166Code` is an attribute in the model.
@Managed(entity: "Continent") final class LinkedCodeContinent: ManagedObject {
    @Relationship(inverse: "country") var numericISO3166Code: Set<Mood>
}

/// `countries` leads to `Country` in the model.
@Managed(entity: "Continent") final class MoodyContinent: ManagedObject {
    @Relationship(inverse: "country") var countries: Set<Mood>
}

/// The model has no `Planet`.
@Managed(entity: "Planet") final class Planet: ManagedObject {
    var name: String?
}
