extension ManagedObject {
    /// Runs `body` with the entity's attribute layout, not retained: the entity is a constant of
    /// the object, so its layout lives as long as the object does.
    @inline(__always)
    func withAttributeLayout<Result>(_ body: (AttributeLayout) throws -> Result) rethrows -> Result {
        // Guaranteed, not retained: saves a retain and a release, more than the rest of a read.
        try Unmanaged.passUnretained(entity.attributeLayout)._withUnsafeGuaranteedRef(body)
    }
}
