// The umbrella module: `import Strata` brings the whole stack. Store families register their
// store types with `StoreType.register(_:factory:)` as they join.
@_exported import StrataCore
