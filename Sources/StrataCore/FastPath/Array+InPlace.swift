extension Array {
    /// `body` applied to the last element, read in place (nil when the array is empty): reading
    /// `last` copies the element out, retaining what it holds, which costs more per fetched row
    /// than the comparison it serves.
    @inline(__always)
    func withLast<Result>(_ body: (borrowing Element) -> Result) -> Result? {
        withUnsafeBufferPointer { elements in
            guard let last = elements.indices.last else { return nil }
            return body(elements[last])
        }
    }

    /// Reverses the elements from `start` to the end in place, through the array's buffer:
    /// reversing the slice copied it out and back, and swapping the array's elements retained and
    /// released each one. What a list of snapshots or objects taken from its end is put through.
    mutating func reverseInPlace(from start: Int = 0) {
        guard count - start > 1 else { return }
        withUnsafeMutableBufferPointer { buffer in
            var tail = UnsafeMutableBufferPointer(rebasing: buffer[start...])
            tail.reverse()
        }
    }
}
