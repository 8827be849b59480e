import Foundation
import Strata

// The predicate table: cases worked out by hand on ``PredicateFixture``, shared by the store
// conformance suite (every store type) and the SQLite translation tests (SQL against memory).

/// An argument of a table case: a plain value, or fixture objects found by name in the
/// context the case runs in.
public enum TableArgument: Sendable {
    case value(any Sendable)
    case object(String)
    case objects([String])
}

/// One row of the predicate table: a format with its arguments and variables, and the names
/// of the objects of `entity` it must match in ``PredicateFixture``.
public struct PredicateCase: Sendable, CustomStringConvertible {
    public let entity: String
    public let format: String
    public let arguments: [TableArgument]
    public let variables: [String: TableArgument]
    public let expected: Set<String>

    public var description: String { "\(entity): \(format)" }
}

// Names that are awkward to type: Chloé (precomposed é), René (decomposed e + U+0301).
private let chloe = "Chlo\u{E9}"
private let rene = "Rene\u{301}"
private let dmitri = "Дмитрий"
private let omega = "Ωmega"
private let everyone = ["Alice", "Bob", chloe, dmitri, "Eve", rene, "Gustav", "Ilker"]
private func everyoneBut(_ names: String...) -> [String] { everyone.filter { !names.contains($0) } }
private func date(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }

private func row(_ entity: String, _ format: String, _ arguments: [TableArgument], _ variables: [String: TableArgument],
                 _ expected: [String]) -> PredicateCase {
    PredicateCase(entity: entity, format: format, arguments: arguments, variables: variables, expected: Set(expected))
}
private func person(_ format: String, _ arguments: TableArgument..., variables: [String: TableArgument] = [:],
                    expect: [String]) -> PredicateCase {
    row("Person", format, arguments, variables, expect)
}
private func company(_ format: String, _ arguments: TableArgument..., expect: [String]) -> PredicateCase {
    row("Company", format, arguments, [:], expect)
}
private func pet(_ format: String, _ arguments: TableArgument..., expect: [String]) -> PredicateCase {
    row("Pet", format, arguments, [:], expect)
}
private func task(_ format: String, _ arguments: TableArgument..., expect: [String]) -> PredicateCase {
    row("Task", format, arguments, [:], expect)
}
private func club(_ format: String, _ arguments: TableArgument..., expect: [String]) -> PredicateCase {
    row("Club", format, arguments, [:], expect)
}
private func gadget(_ format: String, _ arguments: TableArgument..., expect: [String]) -> PredicateCase {
    row("Gadget", format, arguments, [:], expect)
}
private func phone(_ format: String, _ arguments: TableArgument..., expect: [String]) -> PredicateCase {
    row("Phone", format, arguments, [:], expect)
}

/// The table. Every expected set is worked out by hand from the fixture's table in
/// `PredicateFixture.swift`; the comment on a row says why where it is not obvious.
public enum PredicateTable {
    public static let cases: [PredicateCase] = comparisons + numbers + datesAndData + strings + unicode
        + relationships + toMany + ordered + subqueries + compounds + otherEntities + manyToMany + subEntities
        + aggregates

    public static let comparisons: [PredicateCase] = [
        person("age == 30", expect: ["Alice"]),
        person("age = 30", expect: ["Alice"]),
        person("age != 30", expect: everyoneBut("Alice")),  // Eve's nil age is not 30
        person("age <> 30", expect: everyoneBut("Alice")),
        person("age < 28", expect: ["Bob", "Ilker"]),
        person("age <= 28", expect: ["Bob", rene, "Ilker"]),
        person("age =< 28", expect: ["Bob", rene, "Ilker"]),
        person("age > 35", expect: [dmitri, "Gustav"]),
        person("age >= 35", expect: [chloe, dmitri, "Gustav"]),
        person("age => 35", expect: [chloe, dmitri, "Gustav"]),
        person("age BETWEEN {25, 30}", expect: ["Alice", "Bob", rene]),
        person("age BETWEEN %@", .value([19, 25]), expect: ["Bob", "Ilker"]),
        person("age IN {19, 40, 99}", expect: ["Ilker", dmitri]),
        person("age IN %@", .value([30, 50]), expect: ["Alice", "Gustav"]),
        person("age == nil", expect: ["Eve"]),
        person("age != nil", expect: everyoneBut("Eve")),
        person("age == NULL", expect: ["Eve"]),
        person("age == NIL", expect: ["Eve"]),
        person("age < 1000 OR age >= 1000", expect: everyoneBut("Eve")),  // nil is neither
        person("age == %@", .value(Optional<Int>.none), expect: ["Eve"]),
    ]

    public static let numbers: [PredicateCase] = [
        person("age > 30.5", expect: [chloe, dmitri, "Gustav"]),
        person("age == 30.0", expect: ["Alice"]),
        person("age == %@", .value(Int16(25)), expect: ["Bob"]),
        person("age == %d", .value(28), expect: [rene]),
        person("age > %ld", .value(39), expect: [dmitri, "Gustav"]),
        person("age < %lld", .value(Int64(20)), expect: ["Ilker"]),
        person("age == %i", .value(35), expect: [chloe]),
        person("age >= %f", .value(39.5), expect: [dmitri, "Gustav"]),
        person("age > %lf", .value(49.9), expect: ["Gustav"]),
        person("age == 0x1E", expect: ["Alice"]),
        person("age == 0o31", expect: ["Bob"]),
        person("age == 0b10011", expect: ["Ilker"]),
        person("age == -5", expect: []),
        person("age > -1", expect: everyoneBut("Eve")),
        person("age == CAST('30', 'NSNumber')", expect: ["Alice"]),
        person("height > 1.8", expect: ["Bob", dmitri]),
        person("height >= 1.8", expect: ["Bob", dmitri, "Gustav"]),
        person("height < 1.6", expect: ["Ilker"]),
        person("height BETWEEN {1.6, 1.7}", expect: ["Alice", chloe, "Eve"]),
        person("height == 1.75", expect: [rene]),
        person("height < 2", expect: everyone),
        person("height > 1e0", expect: everyone),
        person("height < 17.5e-1", expect: ["Alice", chloe, "Eve", "Ilker"]),
        person("salary == 4000", expect: ["Bob"]),
        person("salary > 6000", expect: [chloe, dmitri, "Gustav"]),
        person("salary == 5000.5", expect: ["Alice", rene]),
        person("salary == %@", .value(Decimal(string: "5000.50") ?? 0), expect: ["Alice", rene]),
        person("salary < CAST('1000', 'NSDecimalNumber')", expect: ["Ilker"]),
        person("salary BETWEEN {4000, 6000.25}", expect: ["Alice", "Bob", chloe, rene]),
        person("salary == nil", expect: ["Eve"]),
        person("salary > 9999", expect: ["Gustav"]),
        person("salary < %@", .value(150), expect: ["Ilker"]),
    ]

    public static let datesAndData: [PredicateCase] = [
        person("born == CAST(0, 'NSDate')", expect: ["Alice"]),
        person("born < CAST(0, \"NSDate\")", expect: [chloe, "Gustav"]),
        person("born > %@", .value(date(600_000_000)), expect: [dmitri, "Ilker"]),
        person("born BETWEEN %@", .value([date(0), date(86_400)]), expect: ["Alice", "Bob"]),
        person("born == nil", expect: ["Eve"]),
        person("born == %@", .value(date(700_000_000.5)), expect: ["Ilker"]),
        person("born > CAST(700000000, 'NSDate')", expect: [dmitri, "Ilker"]),  // Ilker's half second counts
        person("born >= CAST(-86400.0, 'NSDate') AND born <= CAST(86400, 'NSDate')", expect: ["Alice", "Bob", chloe]),
        person("born IN %@", .value([date(0), date(500_000_000)]), expect: ["Alice", rene]),
        person("active == YES", expect: ["Alice", chloe, dmitri, rene, "Ilker"]),
        person("active == TRUE", expect: ["Alice", chloe, dmitri, rene, "Ilker"]),
        person("active == NO", expect: ["Bob", "Eve", "Gustav"]),
        person("active == false", expect: ["Bob", "Eve", "Gustav"]),
        person("active == 1", expect: ["Alice", chloe, dmitri, rene, "Ilker"]),
        person("active != YES", expect: ["Bob", "Eve", "Gustav"]),
        person("active == %@", .value(true), expect: ["Alice", chloe, dmitri, rene, "Ilker"]),
        person("photo == %@", .value(Data([1, 2])), expect: ["Alice", rene]),
        person("photo == nil", expect: ["Eve", "Ilker"]),
        person("photo != nil", expect: ["Alice", "Bob", chloe, dmitri, rene, "Gustav"]),
        person("photo == %@", .value(Data()), expect: [chloe]),
        person("photo > %@", .value(Data([1, 2])), expect: ["Bob", dmitri]),  // bytes compare lexicographically
        person("photo == CAST('AQI=', 'NSData')", expect: ["Alice", rene]),
    ]

    public static let strings: [PredicateCase] = [
        person("name == 'Alice'", expect: ["Alice"]),
        person("name == \"Bob\"", expect: ["Bob"]),
        person("name ==[c] 'alice'", expect: ["Alice"]),
        person("name == 'alice'", expect: []),
        person("name BEGINSWITH 'A'", expect: ["Alice"]),
        person("name beginswith[C] 'a'", expect: ["Alice"]),
        person("name ENDSWITH 'e'", expect: ["Alice", "Eve"]),  // é is not e
        person("name ENDSWITH[d] 'e'", expect: ["Alice", chloe, "Eve", rene]),
        person("name CONTAINS 'e'", expect: ["Alice", "Eve", rene, "Ilker"]),
        person("name CONTAINS[c] 'E'", expect: ["Alice", "Eve", rene, "Ilker"]),
        person("name CONTAINS[cd] 'E'", expect: ["Alice", chloe, "Eve", rene, "Ilker"]),
        person("name LIKE 'A*'", expect: ["Alice"]),
        person("name LIKE '?ob'", expect: ["Bob"]),
        person("name LIKE '*e'", expect: ["Alice", "Eve"]),
        person("name LIKE[cd] '*E'", expect: ["Alice", chloe, "Eve", rene]),
        person("name LIKE 'G?st*'", expect: ["Gustav"]),
        person("name LIKE '*'", expect: everyone),
        person("name LIKE '?????'", expect: ["Alice", chloe, "Ilker"]),  // René is four characters
        person("name MATCHES 'A.*'", expect: ["Alice"]),
        person("name MATCHES '[A-E].*'", expect: ["Alice", "Bob", chloe, "Eve"]),
        person("name MATCHES '.{3}'", expect: ["Bob", "Eve"]),
        person("name MATCHES[c] 'alice|bob'", expect: ["Alice", "Bob"]),
        person(#"name MATCHES '\\p{Script=Cyrillic}+'"#, expect: [dmitri]),
        person("name MATCHES 'Ali'", expect: []),  // the whole string must match
        person("name IN {'Alice', 'Bob', 'Zed'}", expect: ["Alice", "Bob"]),
        person("name IN %@", .value(["Eve", "Gustav"]), expect: ["Eve", "Gustav"]),
        person("name IN[c] {'ALICE', 'EVE'}", expect: ["Alice", "Eve"]),
        person("name > 'M'", expect: [rene, dmitri]),
        person("name < 'C'", expect: ["Alice", "Bob"]),
        person("'li' IN name", expect: ["Alice"]),
        person("%K == %@", .value("name"), .value("Bob"), expect: ["Bob"]),
        person("SELF.name == 'Eve'", expect: ["Eve"]),
        person("#name == 'Bob'", expect: ["Bob"]),
        person(#"name == "Ali\u0063e""#, expect: ["Alice"]),
        person(#"name == 'Chlo\u00e9'"#, expect: [chloe]),
        person(#"name == 'Gus\x74av'"#, expect: ["Gustav"]),
        person("nickname == nil", expect: ["Bob"]),
        person("nickname == ''", expect: ["Eve"]),
        person("nickname != nil AND nickname != ''", expect: ["Alice", chloe, dmitri, rene, "Gustav", "Ilker"]),
        person("nickname MATCHES '[A-Z][a-z]+'", expect: ["Alice", chloe, dmitri]),  // ß is not in [a-z]
        person("nickname LIKE 'D\\\\*'", expect: []),  // an escaped * is a literal star
        person("nickname LIKE[c] '?li'", expect: ["Alice"]),
    ]

    public static let unicode: [PredicateCase] = [
        person("name ==[cd] 'chloe'", expect: [chloe]),
        person("name == 'Chloe\u{301}'", expect: [chloe]),  // canonically equivalent spellings are equal
        person("name ==[n] 'Ren\u{E9}'", expect: []),  // [n]: scalars as given, René is stored decomposed
        person("name ==[n] 'Rene\u{301}'", expect: [rene]),
        person("name == 'Ren\u{E9}'", expect: [rene]),
        person("name BEGINSWITH 'Ren'", expect: [rene]),
        person("name BEGINSWITH[n] 'Rene'", expect: [rene]),  // scalar prefix of e + U+0301
        person("name BEGINSWITH 'Rene'", expect: []),  // the fourth character is é
        person("name CONTAINS 'ми'", expect: [dmitri]),
        person("name ==[c] 'ДМИТРИЙ'", expect: [dmitri]),
        person("nickname ==[c] 'strasse'", expect: [rene, "Gustav"]),  // ß folds to ss
        person("nickname == 'STRASSE'", expect: [rene]),
        person("nickname ==[c] 'STRASSE'", expect: [rene, "Gustav"]),
        person("nickname ==[d] 'Strasse'", expect: []),  // ß is not a diacritic
        person("nickname ==[c] 'ilker'", expect: []),  // dotless ı is not i
        person("nickname ==[cd] 'ILKER'", expect: []),
        person("nickname BEGINSWITH '\u{131}'", expect: ["Ilker"]),
        person("nickname LIKE[c] 'stra*'", expect: [rene, "Gustav"]),
        person("nickname CONTAINS[c] 'SS'", expect: [rene, "Gustav"]),
        person("nickname CONTAINS 'ß'", expect: ["Gustav"]),
        person("employer.city ==[cd] 'saint-etienne'", expect: ["Alice", "Bob", rene, chloe, dmitri]),
        person("employer.city == 'Saint-\u{C9}tienne'", expect: ["Alice", "Bob", rene, chloe, dmitri]),
        person("employer.city ==[n] 'Saint-\u{C9}tienne'", expect: ["Alice", "Bob", rene]),
        company("city ==[cd] 'saint-etienne'", expect: ["Acme", "Bolt"]),
        company("city ==[cd] %@", .value("SAINT-ETIENNE"), expect: ["Acme", "Bolt"]),
        company("city == 'Saint-E\u{301}tienne'", expect: ["Acme", "Bolt"]),
        company("city ==[n] 'Saint-E\u{301}tienne'", expect: ["Bolt"]),
        company("city BEGINSWITH[d] 'Saint-E'", expect: ["Acme", "Bolt"]),
        company("city BEGINSWITH 'Saint-E'", expect: []),
        company("city BEGINSWITH[n] 'Saint-E'", expect: ["Bolt"]),
        company("city LIKE[cd] 'saint-?tienne'", expect: ["Acme", "Bolt"]),
        company("city MATCHES[d] 'Saint-Etienne'", expect: ["Acme", "Bolt"]),
        company("city MATCHES 'Saint-.tienne'", expect: ["Acme"]),  // . is one code point; Bolt's É is two
        company("city CONTAINS[cd] 'ÖL'", expect: [omega]),
        company("name == 'Ωmega'", expect: [omega]),
        company("name ==[c] 'ωMEGA'", expect: [omega]),
    ]

    public static let relationships: [PredicateCase] = [
        person("employer.name == 'Acme'", expect: ["Alice", "Bob", rene]),
        person("employer == nil", expect: ["Eve", "Gustav", "Ilker"]),
        person("employer != nil", expect: ["Alice", "Bob", chloe, dmitri, rene]),
        person("employer.name BEGINSWITH 'B'", expect: [chloe, dmitri]),
        person("manager.name == 'Alice'", expect: ["Bob", "Eve"]),
        person("manager.manager.name == 'Alice'", expect: [rene]),
        person("manager == nil", expect: ["Alice", chloe, "Gustav", "Ilker"]),
        person("manager.employer.name == 'Acme'", expect: ["Bob", "Eve", rene]),
        person("employer.founded == CAST(0, 'NSDate')", expect: ["Alice", "Bob", rene]),
        person("employer.revenue > 1000", expect: ["Alice", "Bob", rene]),
        person("employer == %@", .object("Company/Acme"), expect: ["Alice", "Bob", rene]),
        person("employer IN %@", .objects(["Company/Acme", "Company/Bolt"]), expect: ["Alice", "Bob", rene, chloe, dmitri]),
        person("SELF == %@", .object("Person/Bob"), expect: ["Bob"]),
        person("SELF IN %@", .objects(["Person/Alice", "Person/Eve"]), expect: ["Alice", "Eve"]),
        person("manager == %@", .object("Person/Alice"), expect: ["Bob", "Eve"]),
        person("SELF != %@", .object("Person/Alice"), expect: everyoneBut("Alice")),
        person("employer.%K == %@", .value("name"), .value("Bolt"), expect: [chloe, dmitri]),
        person("%K.name == 'Acme'", .value("employer"), expect: ["Alice", "Bob", rene]),
        person("%K == 'Acme'", .value("employer.name"), expect: ["Alice", "Bob", rene]),
        person("employer.name == $CO", variables: ["CO": .value("Bolt")], expect: [chloe, dmitri]),
        person("age > $AGE", variables: ["AGE": .value(30)], expect: [chloe, dmitri, "Gustav"]),
        person("name IN $NAMES", variables: ["NAMES": .value(["Bob", "Eve"])], expect: ["Bob", "Eve"]),
        person("manager == $BOSS", variables: ["BOSS": .object("Person/Bob")], expect: [rene]),
    ]

    public static let toMany: [PredicateCase] = [
        person("pets.@count == 2", expect: ["Alice"]),
        person("pets.@count > 0", expect: ["Alice", "Bob", chloe]),
        person("pets.@count == 0", expect: [dmitri, "Eve", rene, "Gustav", "Ilker"]),
        person("ANY pets.species == 'dog'", expect: ["Alice"]),
        person("any pets.species ==[c] 'DOG'", expect: ["Alice"]),  // Stray has no owner
        person("SOME pets.legs == 2", expect: ["Bob"]),
        person("ALL pets.legs == 4", expect: ["Alice", dmitri, "Eve", rene, "Gustav", "Ilker"]),  // ALL of none holds
        person("NONE pets.legs == 4", expect: everyoneBut("Alice")),
        person("ALL pets.legs > 0 AND pets.@count > 0", expect: ["Alice", "Bob"]),
        person("pets.species == 'cat'", expect: ["Alice"]),  // a to-many compared directly: any element
        person("'cat' IN pets.species", expect: ["Alice"]),
        person("pets.species CONTAINS 'fish'", expect: [chloe]),  // membership in the collection
        person("ANY pets.name BEGINSWITH 'P'", expect: ["Bob"]),
        person("ANY pets.name IN {'Nemo', 'Rex'}", expect: ["Alice", chloe]),
        person("pets.@max.legs == 4", expect: ["Alice"]),
        person("pets.@sum.legs == 2", expect: ["Bob"]),
        person("pets.@sum.legs == 0", expect: [chloe, dmitri, "Eve", rene, "Gustav", "Ilker"]),  // sum of none is 0
        person("pets.@avg.legs == 4", expect: ["Alice"]),  // average of none is nil
        person("pets.@min.legs < 3", expect: ["Bob", chloe]),
        person("4 IN pets.@distinctUnionOfObjects.legs", expect: ["Alice"]),
        person("reports.@count == 2", expect: ["Alice"]),
        person("ANY reports.name == 'Ren\u{E9}'", expect: ["Bob"]),
        person("ANY reports.pets.species == 'parrot'", expect: ["Alice"]),
        person("reports.@count > 0 AND ALL reports.active == NO", expect: ["Alice"]),
        person("NONE reports.active == YES", expect: ["Alice", dmitri, "Eve", rene, "Gustav", "Ilker"]),
        person("ANY pets == %@", .object("Pet/Polly"), expect: ["Bob"]),
        person("%@ IN pets", .object("Pet/Nemo"), expect: [chloe]),
        person("pets CONTAINS %@", .object("Pet/Tom"), expect: ["Alice"]),
    ]

    public static let ordered: [PredicateCase] = [
        person("tasks.@count == 3", expect: ["Alice"]),
        person("tasks[FIRST].name == 'Write'", expect: ["Alice"]),
        person("tasks[LAST].name == 'Deploy'", expect: [dmitri]),
        person("tasks[SIZE] == 1", expect: ["Bob"]),
        person("tasks[1].name == 'Review'", expect: ["Alice"]),
        person("tasks[%d].name == 'Ship'", .value(2), expect: ["Alice"]),
        person("tasks[5].name == nil", expect: everyone),  // past the end is nil
        person("tasks[first].priority > tasks[last].priority", expect: []),
        person("tasks[FIRST].priority < tasks[LAST].priority", expect: ["Alice", dmitri]),
        person("ANY tasks.done == NO", expect: ["Alice"]),
        person("ALL tasks.done == YES", expect: everyoneBut("Alice")),
        person("tasks.@sum.priority == 6", expect: ["Alice", dmitri]),
        person("tasks.@avg.priority == 3", expect: [dmitri]),
        person("tasks.@max.priority >= 5", expect: ["Bob"]),
        person("tasks.@min.due == CAST(500, 'NSDate')", expect: ["Bob"]),
        person("ANY tasks.due > CAST(2500, 'NSDate')", expect: [dmitri]),
        person("ANY tasks.name LIKE 'S*'", expect: ["Alice"]),
    ]

    public static let subqueries: [PredicateCase] = [
        person("SUBQUERY(tasks, $t, $t.done == NO).@count == 2", expect: ["Alice"]),
        person("SUBQUERY(tasks, $t, $t.priority > 1 AND $t.done == YES).@count > 0", expect: ["Bob", dmitri]),
        person("SUBQUERY(pets, $p, $p.legs == 4).@count == pets.@count",
               expect: ["Alice", dmitri, "Eve", rene, "Gustav", "Ilker"]),
        person("SUBQUERY(reports, $r, ANY $r.pets.legs == 2).@count == 1", expect: ["Alice"]),
        person("SUBQUERY(tasks, $t, name BEGINSWITH 'S').@count == 1", expect: ["Alice"]),  // bare keys: the element
        person("SUBQUERY(tasks, $t, SELF.priority == 4).@count > 0", expect: [dmitri]),
        person("SUBQUERY(tasks, $t, $t.priority >= $MIN).@count >= 2", variables: ["MIN": .value(2)],
               expect: ["Alice", dmitri]),
        person("subquery(pets, $x, $x.species IN {'cat', 'fish'})[SIZE] == 1", expect: ["Alice", chloe]),
        person("SUBQUERY(reports, $r, SUBQUERY($r.tasks, $t, $t.done == YES).@count > 0).@count > 0",
               expect: ["Alice", chloe]),  // Bob's Test, Дмитрий's Plan
        person("SUBQUERY(tasks, $t, $t.due == nil).@count == 1", expect: ["Alice"]),
    ]

    public static let compounds: [PredicateCase] = [
        person("age > 20 AND active == YES", expect: ["Alice", chloe, dmitri, rene]),
        person("age < 20 OR age > 45", expect: ["Ilker", "Gustav"]),
        person("age < 20 || age > 45 && active == YES", expect: ["Ilker"]),  // AND binds tighter
        person("(age < 20 || age > 45) && active == NO", expect: ["Gustav"]),
        person("NOT (age < 30)", expect: ["Alice", chloe, dmitri, "Eve", "Gustav"]),  // NOT of false for nil
        person("!(age >= 30) AND age != nil", expect: ["Bob", rene, "Ilker"]),
        person("NOT NOT name == 'Bob'", expect: ["Bob"]),
        person("NOT active == YES", expect: ["Bob", "Eve", "Gustav"]),
        person("TRUEPREDICATE", expect: everyone),
        person("FALSEPREDICATE", expect: []),
        person("TRUEPREDICATE AND name == 'Eve'", expect: ["Eve"]),
        person("FALSEPREDICATE OR name == 'Eve'", expect: ["Eve"]),
        person("name == 'Alice' and age == 30 or name == 'Bob'", expect: ["Alice", "Bob"]),
        person("(((name == 'Alice')))", expect: ["Alice"]),
        person("age == 30 AND name == %@", .value("Alice"), expect: ["Alice"]),
        person("name == %@ OR name == %s OR age == %d", .value("Bob"), .value("Eve"), .value(19),
               expect: ["Bob", "Eve", "Ilker"]),
        person("NOT (name IN {'Alice', 'Bob'} OR age > 30)", expect: ["Eve", rene, "Ilker"]),
        person("employer.name == 'Acme' AND NOT pets.@count > 0", expect: [rene]),
    ]

    public static let otherEntities: [PredicateCase] = [
        company("employees.@count == 0", expect: [omega]),
        company("ALL employees.active == YES", expect: ["Bolt", omega]),
        company("ANY employees.age < 26", expect: ["Acme"]),
        company("NONE employees.age > 30", expect: ["Acme", omega]),
        company("employees.@avg.age == 37.5", expect: ["Bolt"]),
        company("employees.@sum.salary > 13500", expect: ["Acme"]),  // 14001 against 13000.25
        company("founded == nil", expect: [omega]),
        company("founded > CAST(0, 'NSDate')", expect: ["Bolt"]),
        company("revenue < 1000", expect: ["Bolt"]),
        company("SUBQUERY(employees, $e, $e.pets.@count > 0).@count == 2", expect: ["Acme"]),
        company("ANY employees.tasks.name == 'Plan'", expect: ["Bolt"]),
        company("SUBQUERY(employees, $e, $e.manager == nil).@count > 0", expect: ["Acme", "Bolt"]),
        pet("owner.name == 'Alice'", expect: ["Rex", "Tom"]),
        pet("owner == nil", expect: ["Stray"]),
        pet("species ==[c] 'dog'", expect: ["Rex", "Stray"]),
        pet("owner.employer.name == 'Acme'", expect: ["Rex", "Tom", "Polly"]),
        pet("legs IN {0, 3}", expect: ["Nemo", "Stray"]),
        pet("owner.tasks.@count > 0", expect: ["Rex", "Tom", "Polly"]),
        pet("owner.active == YES", expect: ["Rex", "Tom", "Nemo"]),
        pet("NOT owner.active == YES", expect: ["Polly", "Stray"]),
        pet("legs BETWEEN {2, 3}", expect: ["Polly", "Stray"]),
        pet("species IN[c] {'DOG', 'FISH'}", expect: ["Rex", "Stray", "Nemo"]),
        pet("owner.manager.name == 'Alice'", expect: ["Polly"]),
        pet("owner == %@", .object("Person/Bob"), expect: ["Polly"]),
        task("assignee.name == 'Alice'", expect: ["Write", "Review", "Ship"]),
        task("due == nil", expect: ["Review", "Idle"]),
        task("done == NO AND assignee != nil", expect: ["Review", "Ship"]),
        task("priority > 2", expect: ["Review", "Test", "Deploy"]),
        task("assignee.employer.city ==[cd] 'SAINT-ETIENNE'", expect: ["Write", "Review", "Ship", "Test", "Plan", "Deploy"]),
        task("due BETWEEN {CAST(1000, 'NSDate'), CAST(3000, 'NSDate')}", expect: ["Write", "Ship", "Plan"]),
        task("priority == 0x0", expect: ["Idle"]),
        task("name MATCHES '[A-Z][a-z]{3}'", expect: ["Ship", "Test", "Plan", "Idle"]),
        task("assignee.pets.@count == 2", expect: ["Write", "Review", "Ship"]),
        task("assignee.tasks[FIRST] == SELF", expect: ["Write", "Test", "Plan"]),
    ]

    /// A many-to-many (a join table in SQLite), with an empty club, a club of nil dues, members
    /// of nil age; both directions.
    public static let manyToMany: [PredicateCase] = [
        person("ANY clubs.name == 'Chess'", expect: ["Alice", "Bob", "Eve"]),
        person("ANY clubs.dues > 5", expect: ["Alice", "Bob", "Eve", dmitri]),
        person("ALL clubs.dues > 10", expect: [chloe, dmitri, rene, "Gustav", "Ilker"]),  // nil dues are left out
        person("NONE clubs.name BEGINSWITH[c] 'c'", expect: [dmitri, rene, "Gustav", "Ilker"]),
        person("ANY clubs.dues == nil", expect: []),  // a key path through a to-many leaves nil out
        person("clubs.@count == 2", expect: ["Alice"]),
        person("clubs.@count == 0", expect: [rene, "Gustav", "Ilker"]),
        person("clubs.@count > 0 AND ALL clubs.dues >= 10", expect: ["Alice", "Bob", chloe, dmitri, "Eve"]),
        person("clubs.@sum.dues == 10", expect: ["Alice", "Bob", "Eve"]),
        person("clubs.@sum.dues == 0", expect: [chloe, rene, "Gustav", "Ilker"]),  // sum of none (or of nil) is 0
        person("clubs.@avg.dues == nil", expect: [chloe, rene, "Gustav", "Ilker"]),  // average of none is nil
        person("clubs.@avg.dues > 20", expect: [dmitri]),
        person("clubs.@max.dues >= 10", expect: ["Alice", "Bob", "Eve", dmitri]),
        person("clubs.@min.dues == nil", expect: [chloe, rene, "Gustav", "Ilker"]),
        person("SUBQUERY(clubs, $c, $c.dues == nil).@count == 1", expect: ["Alice", chloe]),
        person("SUBQUERY(clubs, $c, $c.members.@count > 1).@count == 2", expect: ["Alice"]),
        person("ANY clubs.members.name == 'Eve'", expect: ["Alice", "Bob", "Eve"]),
        person("%@ IN clubs", .object("Club/Choir"), expect: ["Alice", chloe]),
        person("ANY clubs == %@", .object("Club/Rowing"), expect: [dmitri]),
        person("ANY employer.employees.clubs.name == 'Rowing'", expect: [chloe, dmitri]),  // to-one, then to-many twice
        club("ANY members.age > 35", expect: ["Rowing"]),
        club("members.@count == 0", expect: ["Empty"]),
        club("ALL members.active == YES", expect: ["Choir", "Rowing", "Empty"]),
        club("NONE members.age == nil", expect: ["Chess", "Choir", "Rowing", "Empty"]),  // Eve's nil age is left out
        club("members.@sum.age == 55", expect: ["Chess"]),  // Eve's nil age is left out
        club("members.@avg.age == 27.5", expect: ["Chess"]),
        club("members.@min.age == 25", expect: ["Chess"]),
        club("SUBQUERY(members, $m, $m.employer.name == 'Acme').@count == 2", expect: ["Chess"]),
        club("ANY members.pets.species == 'fish'", expect: ["Choir"]),
    ]

    /// A to-many whose destination has a sub-entity in the same table, and fetches of the
    /// sub-entity and of the parent (which includes the sub-entity's objects).
    public static let subEntities: [PredicateCase] = [
        person("ANY gadgets.weight > 400", expect: ["Alice", "Gustav"]),
        person("gadgets.@count == 1", expect: ["Bob", "Gustav"]),
        person("ALL gadgets.weight < 600", expect: everyoneBut("Gustav")),  // Bob's phone has no weight
        person("gadgets.@sum.weight == 700", expect: ["Alice"]),
        person("gadgets.@max.weight == 1000", expect: ["Gustav"]),
        person("SUBQUERY(gadgets, $g, $g.weight == nil).@count > 0", expect: ["Bob"]),
        person("NONE gadgets.name == 'Pixel'", expect: everyoneBut("Alice")),
        person("ANY gadgets == %@", .object("Phone/Nokia"), expect: ["Bob"]),
        phone("owner.gadgets.@count == 2", expect: ["Pixel"]),
        phone("owner == nil", expect: ["Brick"]),
        phone("carrier == nil", expect: ["Nokia"]),
        phone("ANY owner.clubs.name == 'Chess'", expect: ["Pixel", "Nokia"]),
        gadget("owner.gadgets.@count >= 1", expect: ["Lamp", "Pixel", "Nokia", "Kettle"]),
        gadget("ANY owner.clubs.name == 'Chess'", expect: ["Lamp", "Pixel", "Nokia"]),
        gadget("owner.gadgets.@sum.weight > 600", expect: ["Lamp", "Pixel", "Kettle"]),
        gadget("owner.clubs.@count == 0", expect: ["Kettle"]),  // Brick's nil owner: nil is not 0
    ]

    /// Collection operators over a to-many: in SQL for integers (and through a to-one first),
    /// in memory for the other types; the same answers either way.
    public static let aggregates: [PredicateCase] = [
        person("pets.@sum.legs > 3", expect: ["Alice"]),
        person("pets.@avg.legs < 3", expect: ["Bob", chloe]),
        person("pets.@max.legs == nil", expect: [dmitri, "Eve", rene, "Gustav", "Ilker"]),  // max of none is nil
        person("tasks.@max.priority == 5", expect: ["Bob"]),
        person("tasks.@min.priority < 2", expect: ["Alice"]),
        person("tasks.@sum.priority > 5", expect: ["Alice", dmitri]),
        person("tasks.@avg.priority > 2.5", expect: ["Bob", dmitri]),
        person("tasks.@max.due > CAST(3500, 'NSDate')", expect: [dmitri]),
        person("pets.@max.name == 'Tom'", expect: ["Alice"]),
        person("pets.@sum.legs == tasks.@sum.priority", expect: [chloe, "Eve", rene, "Gustav", "Ilker"]),  // 0 == 0
        person("employer.employees.@sum.age == 83", expect: ["Alice", "Bob", rene]),
        person("employer.employees.@max.age == 40", expect: [chloe, dmitri]),
        person("employer.employees.@sum.age == nil", expect: ["Eve", "Gustav", "Ilker"]),  // no employer: nil
        person("employer.employees.@count == 3", expect: ["Alice", "Bob", rene]),
        person("NOT employer.employees.@avg.age > 30", expect: ["Alice", "Bob", rene, "Eve", "Gustav", "Ilker"]),
        company("employees.@max.age == 40", expect: ["Bolt"]),
        company("employees.@min.active == NO", expect: ["Acme"]),
        company("employees.@max.active == YES", expect: ["Acme", "Bolt"]),
        company("employees.@sum.active == 2", expect: ["Acme", "Bolt"]),
        company("employees.@avg.height > 1.7", expect: ["Acme", "Bolt"]),
        company("employees.@sum.height == 0", expect: [omega]),  // the sum of no doubles is 0
        company("employees.@sum.salary == 14001", expect: ["Acme"]),  // decimals: 5000.50 + 4000 + 5000.50
        company("employees.@min.name ==[c] 'alice'", expect: ["Acme"]),
        company("employees.@max.born == nil", expect: [omega]),
        company("employees.@min.photo == %@", .value(Data()), expect: ["Bolt"]),  // bytes order: empty first
        pet("owner.pets.@sum.legs == 8", expect: ["Rex", "Tom"]),
        pet("owner.pets.@max.legs == nil", expect: ["Stray"]),
        task("assignee.tasks.@sum.priority == 6", expect: ["Write", "Review", "Ship", "Plan", "Deploy"]),
    ]
}
