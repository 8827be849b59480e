import BenchmarkSupport
import Foundation
import Strata

/// One person as the C API and GRDB engines hold it (Strata: an object of entity `Person`).
struct PersonRow: Codable, Sendable {
    var id: Int64
    var name: String
    var email: String
    var age: Int16
    var score: Double
    var joined: Date
    var active: Bool
}

/// One pet, owned by one person (Strata: an object of entity `Pet`, its to-one `owner`).
struct PetRow: Codable, Sendable {
    var id: Int64
    var name: String
    var species: Int16
    var weight: Double
    var ownerId: Int64
}

/// The outside workload: `persons` persons (default 100,000) and half as many pets, every
/// attribute non-optional with a validation rule where an app would put one, person ↔ pets with
/// a cascade from person to pets. Ages are uniform in 0…99, so the range 20…30 holds ≈ 11 %,
/// `age < 20` ≈ 20 % (the update) and `age >= 72` ≈ 28 % (the delete).
struct Workload: PseudoRandomValues {
    var persons: Int
    var pets: Int { persons / 2 }

    static let rangeLow: Int16 = 20, rangeHigh: Int16 = 30
    static let updatedBelow: Int16 = 20
    static let deletedFrom: Int16 = 72
    /// The locale of the localized sort.
    static let locale = Locale(identifier: "en_US")

    /// The same rules as the C API's `CHECK` constraints in ``PlainSchema``.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel {
            EntityDescription("Person") {
                Attribute("name", .string, optional: false, minimum: 2, maximum: 60)
                Attribute("email", .string, optional: false, minimum: 5, maximum: 80)
                Attribute("age", .integer16, optional: false, minimum: 0, maximum: 150)
                Attribute("score", .double, optional: false, minimum: 0, maximum: 100)
                Attribute("joined", .date, optional: false)
                Attribute("active", .boolean, optional: false)
                Relationship("pets", toMany: "Pet", inverse: "owner", deleteRule: .cascade)
            }
            EntityDescription("Pet") {
                Attribute("name", .string, optional: false, minimum: 1, maximum: 40)
                Attribute("species", .integer16, optional: false, minimum: 0, maximum: 9)
                Attribute("weight", .double, optional: false, minimum: 0.1, maximum: 200)
                Relationship("owner", to: "Person", inverse: "pets", optional: false)
            }
        }
    }

    /// A capitalized word of 3 to 9 letters.
    static func word(_ entity: UInt64, _ index: Int, _ field: UInt64) -> String {
        var value = bits(entity, index, field)
        let length = 3 + Int(value % 7)
        value /= 7
        var scalars = String.UnicodeScalarView()
        for position in 0..<length {
            let letter = UInt8(value % 26)
            value /= 26
            if value == 0 { value = bits(entity, index, field &+ 1000) }
            scalars.append(Unicode.Scalar((position == 0 ? 65 : 97) + letter))
        }
        return String(scalars)
    }

    func person(_ i: Int) -> PersonRow {
        PersonRow(id: Int64(i + 1), name: Self.word(1, i, 1) + " " + Self.word(1, i, 2) + " \(i + 1)",
                  email: Self.word(1, i, 3).lowercased() + "\(i + 1)@example.org",
                  age: Int16(Self.bits(1, i, 4) % 100), score: Self.unit(1, i, 5) * 100,
                  joined: Date(timeIntervalSinceReferenceDate: 600_000_000 + (Self.unit(1, i, 6) * 100_000_000).rounded()),
                  active: Self.bits(1, i, 7) & 1 == 0)
    }

    /// Pet `p` belongs to person `2p` (zero-based), so half the persons own one.
    func pet(_ p: Int) -> PetRow {
        PetRow(id: Int64(p + 1), name: Self.word(2, p, 1), species: Int16(Self.bits(2, p, 2) % 10),
               weight: 0.1 + (Self.unit(2, p, 3) * 199).rounded(), ownerId: Int64(2 * p + 1))
    }

    func personRows() -> [PersonRow] { (0..<persons).map(person) }
    func petRows() -> [PetRow] { (0..<pets).map(pet) }

    /// The updated person: score up by one (at most 100), `active` flipped.
    static func updated(_ row: PersonRow) -> PersonRow {
        var row = row
        row.score = min(100, row.score + 1)
        row.active.toggle()
        return row
    }

    /// The localized order of two names (ties broken by binary order).
    static func localizedAscending(_ a: String, _ b: String) -> Bool {
        switch a.compare(b, locale: locale) {
        case .orderedAscending: true
        case .orderedDescending: false
        case .orderedSame: a < b
        }
    }
}

/// The C API's and GRDB's schema: the model's rules as `CHECK` constraints, the cascade as a
/// foreign key, an index on the foreign key (as the Strata store makes).
enum PlainSchema {
    static let sql = """
        CREATE TABLE person (id INTEGER PRIMARY KEY,
            name TEXT NOT NULL CHECK (length(name) BETWEEN 2 AND 60),
            email TEXT NOT NULL CHECK (length(email) BETWEEN 5 AND 80),
            age INTEGER NOT NULL CHECK (age BETWEEN 0 AND 150),
            score REAL NOT NULL CHECK (score BETWEEN 0 AND 100),
            joined REAL NOT NULL, active INTEGER NOT NULL);
        CREATE TABLE pet (id INTEGER PRIMARY KEY,
            name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 40),
            species INTEGER NOT NULL CHECK (species BETWEEN 0 AND 9),
            weight REAL NOT NULL CHECK (weight BETWEEN 0.1 AND 200),
            ownerId INTEGER NOT NULL REFERENCES person(id) ON DELETE CASCADE);
        CREATE INDEX pet_ownerId ON pet (ownerId);
        """
}

/// A digest of what a phase read, compared across engines: FNV-1a over the bytes.
struct Digest {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
    private(set) var rows = 0

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }

    /// Adds one person in order (the sorted fetches).
    mutating func append(id: Int64, name: String) {
        withUnsafeBytes(of: id.littleEndian) { add($0) }
        add(name.utf8)
        rows += 1
    }

    /// A person's digest, order-free: summed into `value` by ``sum(_:)``.
    static func of(_ row: PersonRow) -> UInt64 {
        var digest = Digest()
        withUnsafeBytes(of: row.id.littleEndian) { digest.add($0) }
        digest.add(row.name.utf8)
        digest.add(row.email.utf8)
        withUnsafeBytes(of: row.age.littleEndian) { digest.add($0) }
        withUnsafeBytes(of: row.score.bitPattern.littleEndian) { digest.add($0) }
        withUnsafeBytes(of: row.joined.timeIntervalSinceReferenceDate.bitPattern.littleEndian) { digest.add($0) }
        digest.add(CollectionOfOne(row.active ? 1 : 0))
        return digest.value
    }

    /// Adds a row's digest regardless of order (fetch all).
    mutating func sum(_ digest: UInt64) {
        value &+= digest
        rows += 1
    }
}

