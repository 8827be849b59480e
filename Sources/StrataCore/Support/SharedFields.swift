/// The fields of a value type kept in one shared, immutable box: copying the value retains one
/// reference instead of each of its strings and collections, and a change boxes a changed copy
/// (a box is never changed once shared). Equal when the fields are; the same box is equal
/// without comparing them.
struct SharedFields<Fields: Sendable & Hashable>: Sendable, Hashable {
    private final class Box: Sendable {
        let fields: Fields

        init(_ fields: Fields) { self.fields = fields }
    }

    private var box: Box

    /// Boxes `fields`.
    init(_ fields: Fields) { box = Box(fields) }

    /// The fields, read in place.
    var fields: Fields {
        _read { yield box.fields }
    }

    /// Changes a copy of the fields and shares that from now on.
    mutating func update(_ change: (inout Fields) -> Void) {
        var fields = box.fields
        change(&fields)
        box = Box(fields)
    }

    static func == (lhs: SharedFields, rhs: SharedFields) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    func hash(into hasher: inout Hasher) { hasher.combine(box.fields) }
}
