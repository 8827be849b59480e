import Foundation
@_spi(StoreImplementation) import StrataCore

/// Attribute values read straight from the UTF-8 bytes libxml2 hands over, for the common
/// shapes of text. Each function answers nil whenever it is not certain, and the caller then
/// takes the general path (`XMLDocumentReader.value(_:base64:for:entity:error:)`), so a value read
/// here is always the one the general path would read.
enum XMLBytes {
    /// The bytes without leading and trailing ASCII white space (tab, LF, VT, FF, CR, space);
    /// nil when any byte is not ASCII, since the general path trims Unicode white space too.
    @inline(__always)
    static func trimmedASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        var start = 0
        var end = bytes.count
        for byte in bytes where byte >= 0x80 { return nil }
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// `Int64(text)`: an optional sign and at least one ASCII digit, nil on overflow.
    @inline(__always)
    static func int64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !bytes.isEmpty else { return nil }
        var index = 0
        let negative = bytes[0] == UInt8(ascii: "-")
        if negative || bytes[0] == UInt8(ascii: "+") { index = 1 }
        guard index < bytes.count else { return nil }
        var value: Int64 = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit <= 9 else { return nil }
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? shifted.subtractingReportingOverflow(Int64(digit))
                                      : shifted.addingReportingOverflow(Int64(digit))
            guard !o1, !o2 else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// The value of `text` (an `<attribute>`'s text, not base64-encoded) for an attribute of
    /// `type`, or nil to take the general path.
    static func value(_ text: UnsafeBufferPointer<UInt8>, type: AttributeType) -> AttributeValue? {
        switch type {
        case .string:
            // libxml2 hands over valid UTF-8 only, so nothing is repaired here.
            return .string(String(decoding: text, as: UTF8.self))
        case .integer16, .integer32, .integer64:
            guard let trimmed = trimmedASCII(text), let value = int64(trimmed) else { return nil }
            return .integer(value)
        case .boolean:
            guard let trimmed = trimmedASCII(text) else { return nil }
            switch String(decoding: trimmed, as: UTF8.self) {
            case "1", "YES", "true": return .boolean(true)
            case "0", "NO", "false": return .boolean(false)
            default: return nil
            }
        case .double, .date:
            guard let trimmed = trimmedASCII(text) else { return nil }
            guard let number = double(trimmed) ?? XMLNumber.parse(String(decoding: trimmed, as: UTF8.self)) else { return nil }
            return type == .double ? .double(number) : .date(Date(timeIntervalSinceReferenceDate: number))
        case .float:
            guard let trimmed = trimmedASCII(text) else { return nil }
            return (float(trimmed) ?? XMLNumber.parseFloat(String(decoding: trimmed, as: UTF8.self))).map { .float($0) }
        case .binaryData, .transformable:
            var compact: [UInt8] = []
            compact.reserveCapacity(text.count)
            for byte in text {
                guard byte < 0x80 else { return nil }
                if !isSpace(byte) { compact.append(byte) }
            }
            return Data(base64Encoded: Data(compact)).map { .binary($0) }
        case .uuid:
            guard let trimmed = trimmedASCII(text) else { return nil }
            return uuid(trimmed).map { .uuid($0) }
        case .decimal:
            guard let trimmed = trimmedASCII(text) else { return nil }
            return Decimal(exactly: String(decoding: trimmed, as: UTF8.self)).map { .decimal($0) }
        case .uri:
            guard let trimmed = trimmedASCII(text) else { return nil }
            return URL(string: String(decoding: trimmed, as: UTF8.self)).map { .uri($0) }
        case .objectID:
            return nil
        }
    }

    static let posix = Locale(identifier: "en_US_POSIX")

    /// A plain decimal number (`-12.5`, `1e-05`, `.5`, `+3.`): an optional sign, digits with at
    /// most one point, an optional exponent. Such text `Double(_:)` and `strtod` read alike (both
    /// round correctly); the rest (`inf`, `nan(0x…)`, hexadecimal, overflow, underflow to zero)
    /// is left to `Double(_:)`.
    @inline(__always)
    static func double(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        withPlainNumber(text) { chars, end, nonzero in
            let value = strtod(chars, end)
            return value.isInfinite || (value == 0 && nonzero) ? nil : value
        }
    }

    /// As ``double(_:)``, for `Float(_:)` and `strtof` (rounding straight to Float).
    @inline(__always)
    static func float(_ text: UnsafeBufferPointer<UInt8>) -> Float? {
        withPlainNumber(text) { chars, end, nonzero in
            let value = strtof(chars, end)
            return value.isInfinite || (value == 0 && nonzero) ? nil : value
        }
    }

    /// Calls `parse` with the text NUL-terminated, an end pointer to fill, and whether a
    /// mantissa digit is not zero, when the text is a plain decimal number of at most 63 bytes;
    /// answers nil unless `parse` read every byte.
    @inline(__always)
    private static func withPlainNumber<T>(
        _ text: UnsafeBufferPointer<UInt8>,
        _ parse: (UnsafePointer<CChar>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, Bool) -> T?
    ) -> T? {
        let count = text.count
        guard count > 0, count < 64 else { return nil }
        var index = 0
        if text[0] == UInt8(ascii: "-") || text[0] == UInt8(ascii: "+") { index = 1 }
        var digits = 0
        var nonzero = false
        var point = false
        while index < count {
            let byte = text[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits += 1
                if byte != UInt8(ascii: "0") { nonzero = true }
            } else if byte == UInt8(ascii: "."), !point {
                point = true
            } else {
                break
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        if index < count {
            guard text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") else { return nil }
            index += 1
            if index < count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") { index += 1 }
            guard index < count else { return nil }
            while index < count {
                guard text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") else { return nil }
                index += 1
            }
        }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> T? in
            guard let base = buffer.baseAddress else { return nil }
            UnsafeMutableRawPointer(base).copyMemory(from: text.baseAddress!, byteCount: count)
            base[count] = 0
            var end: UnsafeMutablePointer<CChar>?
            guard let value = parse(base, &end, nonzero), end == base + count else { return nil }
            return value
        }
    }

    /// `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` in hex digits of either case.
    static func uuid(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard text.count == 36 else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &value) { bytes -> Bool in
            var index = 0
            var byte = 0
            while index < 36 {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard text[index] == UInt8(ascii: "-") else { return false }
                    index += 1
                    continue
                }
                guard let high = hex(text[index]), let low = hex(text[index + 1]) else { return false }
                bytes[byte] = high << 4 | low
                byte += 1
                index += 2
            }
            return true
        }
        return parsed ? UUID(uuid: value) : nil
    }

    @inline(__always)
    private static func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
