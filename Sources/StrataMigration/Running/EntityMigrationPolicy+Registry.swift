import Foundation

extension EntityMigrationPolicy {
    /// Registers a policy class under the name a mapping model gives it (Xcode writes
    /// `Module.ClassName`, or the bare class name). A name registered again is replaced.
    ///
    /// A mapping model's name is looked up exactly first, then by its last dot-separated
    /// component, so `Migrations.Country5ToCountry6Policy` finds a class registered as
    /// `Country5ToCountry6Policy`.
    public static func register(_ type: EntityMigrationPolicy.Type, forName name: String) {
        PolicyRegistry.shared.set(type, for: name)
    }

    /// Removes the registration of `name`.
    public static func unregister(name: String) {
        PolicyRegistry.shared.set(nil, for: name)
    }

    /// The class registered under `name` (or under its last component), if any.
    public static func registeredType(forName name: String) -> EntityMigrationPolicy.Type? {
        if let type = PolicyRegistry.shared.type(for: name) { return type }
        guard let last = name.split(separator: ".").last, last.count < name.count else { return nil }
        return PolicyRegistry.shared.type(for: String(last))
    }
}

/// The registered policy classes by name.
private final class PolicyRegistry: @unchecked Sendable {
    static let shared = PolicyRegistry()
    /// Guards ``types``.
    private let lock = NSLock()
    /// Guarded by ``lock``.
    private var types: [String: EntityMigrationPolicy.Type] = [:]

    func set(_ type: EntityMigrationPolicy.Type?, for name: String) {
        lock.withLock { types[name] = type }
    }

    func type(for name: String) -> EntityMigrationPolicy.Type? {
        lock.withLock { types[name] }
    }
}
