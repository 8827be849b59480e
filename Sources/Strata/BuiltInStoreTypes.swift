import StrataCore

extension StoreType {
    /// Does nothing: the store types that ship with Strata, and the compiled model coder, are
    /// found on their own when their modules are linked (see `BuiltInStoreFamily`).
    @available(*, deprecated, message: "Strata's store types need no registration: remove the call")
    public static func registerBuiltInTypes() {}
}
