import Foundation

/// Values drawn from a fixed pseudo-random function of (entity, index, field), so that every run
/// of a benchmark builds the same data. A data set type adopts it to get the helpers as statics.
public protocol PseudoRandomValues {}

extension PseudoRandomValues {
    /// 64 bits for field `field` of object `index` of entity `entity` (SplitMix64 of the three).
    public static func bits(_ entity: UInt64, _ index: Int, _ field: UInt64) -> UInt64 {
        var z = (entity << 56 ^ UInt64(index) << 8 ^ field) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double in [0, 1).
    public static func unit(_ entity: UInt64, _ index: Int, _ field: UInt64) -> Double {
        Double(bits(entity, index, field) >> 11) / Double(1 << 53)
    }

    /// A version-4 UUID.
    public static func uuid(_ entity: UInt64, _ index: Int) -> UUID {
        let a = bits(entity, index, 90), b = bits(entity, index, 91)
        func byte(_ v: UInt64, _ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: v >> (8 * i)) }
        return UUID(uuid: (byte(a, 0), byte(a, 1), byte(a, 2), byte(a, 3), byte(a, 4), byte(a, 5),
                           byte(a, 6) & 0x0F | 0x40, byte(a, 7), byte(b, 0) & 0x3F | 0x80, byte(b, 1),
                           byte(b, 2), byte(b, 3), byte(b, 4), byte(b, 5), byte(b, 6), byte(b, 7)))
    }

    /// `count` bytes.
    public static func bytes(_ entity: UInt64, _ index: Int, count: Int) -> Data {
        var data = Data(capacity: count)
        var field: UInt64 = 100
        while data.count < count {
            withUnsafeBytes(of: bits(entity, index, field).littleEndian) { data.append(contentsOf: $0.prefix(count - data.count)) }
            field += 1
        }
        return data
    }

    /// The words phrases are made of (some not ASCII).
    public static var words: [String] {
        ["river", "glass", "autumn", "ledger", "harbour", "signal", "copper", "meadow",
         "lantern", "orbit", "cipher", "falcon", "garnet", "hollow", "ivory", "juniper",
         "Ökonomie", "café", "naïve", "Straße"]
    }

    /// `count` words joined by spaces.
    public static func phrase(_ entity: UInt64, _ index: Int, words count: Int) -> String {
        let words = self.words
        return (0..<count).map { words[Int(bits(entity, index, 50 + UInt64($0)) % UInt64(words.count))] }.joined(separator: " ")
    }

    /// The dates' base: 2020-01-06, in seconds since 2001.
    public static var baseDate: Double { 600_000_000.0 }
}
