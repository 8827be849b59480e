import Foundation

/// What `work` returns and the seconds it took on the monotonic clock.
public func timed<T>(_ work: () throws -> T) rethrows -> (T, Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    let result = try work()
    return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

/// The median of `values` (the mean of the middle two for an even count; NaN for none).
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
