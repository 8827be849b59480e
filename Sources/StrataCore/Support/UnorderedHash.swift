/// Hashes name–value pairs so that their order does not matter: what maps that compare equal
/// whatever order they hold their entries in hash with.
func hashUnordered<Value: Hashable>(_ pairs: some Sequence<(String, Value)>, into hasher: inout Hasher) {
    var combined = 0
    var count = 0
    for (name, value) in pairs {
        var pair = Hasher()
        pair.combine(name)
        pair.combine(value)
        combined ^= pair.finalize()
        count += 1
    }
    hasher.combine(count)
    hasher.combine(combined)
}
