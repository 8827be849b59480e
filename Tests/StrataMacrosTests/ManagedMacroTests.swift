import StrataMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@Managed` and its markers expand to, and what they refuse.
@Suite("@Managed expansion")
struct ManagedMacroTests {
    private static let specs: [String: MacroSpec] = [
        "Managed": MacroSpec(type: ManagedMacro.self, conformances: ["EntityDescribing"]),
        "_ManagedProperty": MacroSpec(type: ManagedPropertyMacro.self),
        "Attribute": MacroSpec(type: PropertyOptionsMacro.self),
        "Relationship": MacroSpec(type: PropertyOptionsMacro.self),
        "Transient": MacroSpec(type: PropertyOptionsMacro.self),
    ]

    private func expect(_ source: String, expands expanded: String, diagnostics: [DiagnosticSpec] = [],
                        sourceLocation: SourceLocation = #_sourceLocation) {
        assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: Self.specs,
                             failureHandler: { Issue.record(Comment(rawValue: $0.message), sourceLocation: sourceLocation) })
    }

    @Test("Stored vars become typed accessors; the class gets its entity name, description and key paths")
    func expandsEveryKind() {
        expect(
            """
            @Managed final class Mood: ManagedObject {
                var date: Date
                @Attribute(.unique, .indexed, minValue: 0, maxValue: 5) var rating: Int16 = 0
                var colors: Data?
                @Relationship(inverse: \"moods\", deleteRule: .cascade) var country: Country?
                var tags: Set<Tag>
                @Relationship(inverse: \"mood\", minCount: 1, maxCount: 3) var ordered: [Item]
            }
            """,
            expands:
            """
            final class Mood: ManagedObject {
                var date: Date {
                    get {
                        self[required: "date", as: Date.self]
                    }
                    set {
                        setTyped(newValue, forKey: "date")
                    }
                }
                var rating: Int16 {
                    init(initialValue) {
                    }
                    get {
                        self[required: "rating", as: Int16.self]
                    }
                    set {
                        setTyped(newValue, forKey: "rating")
                    }
                }
                var colors: Data? {
                    get {
                        self[typed: "colors", as: Data.self]
                    }
                    set {
                        setTyped(newValue, forKey: "colors")
                    }
                }
                var country: Country? {
                    get {
                        self[typed: "country", as: Country.self]
                    }
                    set {
                        setTyped(newValue, forKey: "country")
                    }
                }
                var tags: Set<Tag> {
                    get {
                        self[toMany: "tags", as: Tag.self]
                    }
                    set {
                        self[toMany: "tags", as: Tag.self] = newValue
                    }
                }
                var ordered: [Item] {
                    get {
                        self[orderedToMany: "ordered", as: Item.self]
                    }
                    set {
                        self[orderedToMany: "ordered", as: Item.self] = newValue
                    }
                }

                /// The entity this class is the class of.
                public override class var entityName: String {
                    "Mood"
                }

                /// The entity the class's stored properties describe (`@Managed`).
                public static var entityDescription: EntityDescription {
                    EntityDescription("Mood", uniquenessConstraints: [["rating"]]) {
                        DeclaredProperty.attribute("date", Date.self, optional: false)
                        DeclaredProperty.attribute("rating", Int16.self, optional: false, defaultValue: 0, options: [.unique, .indexed], minValue: 0, maxValue: 5)
                        DeclaredProperty.attribute("colors", Data.self, optional: true)
                        DeclaredProperty.toOne("country", Country.self, optional: true, inverse: "moods", deleteRule: .cascade)
                        DeclaredProperty.toMany("tags", Tag.self, ordered: false)
                        DeclaredProperty.toMany("ordered", Item.self, ordered: true, inverse: "mood", minCount: 1, maxCount: 3)
                    }
                }

                /// The model key of each managed property, for sorts by key path and `#Predicate`.
                public static var modelKeyPaths: [AnyKeyPath: String] {
                    [
                        \\Mood.date: "date",
                        \\Mood.rating: "rating",
                        \\Mood.colors: "colors",
                        \\Mood.country: "country",
                        \\Mood.tags: "tags",
                        \\Mood.ordered: "ordered",
                    ]
                }
            }

            extension Mood: EntityDescribing {
            }
            """)
    }

    @Test("[UInt8] is bytes in a Binary Data attribute: the accessors convert to and from Data")
    func expandsBytes() {
        expect(
            """
            @Managed final class Mood: ManagedObject {
                var colors: [UInt8] = []
                var mark: [UInt8]?
            }
            """,
            expands:
            """
            final class Mood: ManagedObject {
                var colors: [UInt8] {
                    init(initialValue) {
                    }
                    get {
                        [UInt8](self[required: "colors", as: Data.self])
                    }
                    set {
                        setTyped(Data(newValue), forKey: "colors")
                    }
                }
                var mark: [UInt8]? {
                    get {
                        self[typed: "mark", as: Data.self].map {
                            [UInt8]($0)
                        }
                    }
                    set {
                        setTyped(newValue.map {
                                Data($0)
                            }, forKey: "mark")
                    }
                }

                /// The entity this class is the class of.
                public override class var entityName: String {
                    "Mood"
                }

                /// The entity the class's stored properties describe (`@Managed`).
                public static var entityDescription: EntityDescription {
                    EntityDescription("Mood") {
                        DeclaredProperty.attribute("colors", Data.self, optional: false, defaultValue: Data([] as [UInt8]))
                        DeclaredProperty.attribute("mark", Data.self, optional: true)
                    }
                }

                /// The model key of each managed property, for sorts by key path and `#Predicate`.
                public static var modelKeyPaths: [AnyKeyPath: String] {
                    [
                        \\Mood.colors: "colors",
                        \\Mood.mark: "mark",
                    ]
                }
            }

            extension Mood: EntityDescribing {
            }
            """)
    }

    @Test("let, static, computed and @Transient properties are left alone; entity: names the entity")
    func leavesOthersAlone() {
        expect(
            """
            @Managed(entity: "SadMood") class Sad: ManagedObject {
                let id = 1
                static var count = 0
                var shout: String { "!" }
                @Transient var scratch = 0
            }
            """,
            expands:
            """
            class Sad: ManagedObject {
                let id = 1
                static var count = 0
                var shout: String { "!" }
                var scratch = 0

                /// The entity this class is the class of.
                public override class var entityName: String {
                    "SadMood"
                }

                /// The entity the class's stored properties describe (`@Managed`).
                public static var entityDescription: EntityDescription {
                    EntityDescription("SadMood") {

                    }
                }

                /// The model key of each managed property, for sorts by key path and `#Predicate`.
                public static var modelKeyPaths: [AnyKeyPath: String] {
                    [:]
                }
            }

            extension Sad: EntityDescribing {
            }
            """)
    }

    @Test("On a struct: refused")
    func refusesStruct() {
        expect(
            "@Managed struct Mood {\n    var date: Date\n}",
            expands: "struct Mood {\n    var date: Date\n}",
            diagnostics: [DiagnosticSpec(message: "@Managed applies to a class that inherits from ManagedObject", line: 1, column: 1)])
    }

    @Test("On a class that is not a ManagedObject: refused")
    func refusesOtherClass() {
        expect(
            "@Managed final class Mood: NSObject {\n    var date: Date\n}",
            expands: "final class Mood: NSObject {\n    var date: Date\n}",
            diagnostics: [DiagnosticSpec(
                message: "@Managed class must inherit from ManagedObject directly (entity inheritance is declared with the model DSL or a model file)",
                line: 1, column: 22)])
    }

    @Test("Unsupported types and missing annotations: refused, naming property and type")
    func refusesUnsupportedTypes() {
        expect(
            """
            @Managed final class Mood: ManagedObject {
                var count: Int
                var tags: Set<Tag>?
                var table: [String: Int]
                var guess = 3
            }
            """,
            expands:
            """
            final class Mood: ManagedObject {
                var count: Int
                var tags: Set<Tag>?
                var table: [String: Int]
                var guess = 3

                /// The entity this class is the class of.
                public override class var entityName: String {
                    "Mood"
                }

                /// The entity the class's stored properties describe (`@Managed`).
                public static var entityDescription: EntityDescription {
                    EntityDescription("Mood") {

                    }
                }

                /// The model key of each managed property, for sorts by key path and `#Predicate`.
                public static var modelKeyPaths: [AnyKeyPath: String] {
                    [:]
                }
            }

            extension Mood: EntityDescribing {
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@Managed property 'count' has type 'Int', which no attribute or relationship stores; use Int16, Int32 or Int64",
                               line: 2, column: 14),
                DiagnosticSpec(message: "@Managed property 'tags' has type 'Set<Tag>?', which no attribute or relationship stores; a to-many is never optional: declare it 'Set<Tag>'",
                               line: 3, column: 13),
                DiagnosticSpec(message: "@Managed property 'table' has type '[String: Int]', which no attribute or relationship stores; use a type Strata stores (Int16, Int32, Int64, Decimal, Double, Float, String, Bool, Date, Data, UUID, URL) or a ManagedObject class",
                               line: 4, column: 14),
                DiagnosticSpec(message: "@Managed property 'guess' needs a type annotation", line: 5, column: 5),
            ])
    }
}
