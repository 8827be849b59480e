/// A list kept in a counted B-tree: reading, inserting and removing at an index, and finding
/// where an ordered predicate turns true, each cost O(log n), where an array moves every element
/// after the change.
///
/// The elements sit in leaves of at most ``leafCapacity`` elements (compact arrays, so a list of
/// 4-byte slots stays about 4 bytes an element); inner nodes hold at most ``innerCapacity``
/// children and each child's element count. Invariants, checked by ``checkInvariants()``:
/// - every leaf but an empty root holds 1...leafCapacity elements; every inner node holds
///   1...innerCapacity children, all leaves or all inner nodes, at the same depth;
/// - an inner node's `counts[i]` is the number of elements under `children[i]`, and its `count`
///   their sum (a leaf's `count` is its number of elements).
///
/// A leaf or inner node that overflows is split in two; one that falls under a quarter of its
/// capacity is merged with a neighbour when the two fit in one node; a root with one child is
/// replaced by it. The tree is a value: nodes are shared between copies and copied along the path
/// a change takes when they are shared (O(log n) nodes), never as a whole.
struct CountedTree<Element> {
    /// A leaf (no children) or an inner node.
    final class Node {
        /// A leaf's elements, in order.
        var elements: [Element]
        /// An inner node's children, in order.
        var children: [Node]
        /// How many elements are under each child.
        var counts: [Int]
        /// How many elements are under this node.
        var count: Int

        init(elements: [Element]) {
            self.elements = elements
            self.children = []
            self.counts = []
            self.count = elements.count
        }

        init(children: [Node]) {
            self.elements = []
            self.children = children
            self.counts = children.map(\.count)
            self.count = counts.reduce(0, +)
        }

        private init(copying node: Node) {
            elements = node.elements
            children = node.children
            counts = node.counts
            count = node.count
        }

        var isLeaf: Bool { children.isEmpty }

        /// A copy sharing the children.
        func copy() -> Node { Node(copying: self) }
    }

    /// The most elements a leaf holds.
    let leafCapacity: Int
    /// The most children an inner node holds.
    let innerCapacity: Int
    private var root: Node

    /// An empty list; small capacities are for tests, which want deep trees from few elements.
    init(leafCapacity: Int = 512, innerCapacity: Int = 64) {
        precondition(leafCapacity >= 4 && innerCapacity >= 4, "a counted tree's nodes hold at least 4 entries")
        self.leafCapacity = leafCapacity
        self.innerCapacity = innerCapacity
        self.root = Node(elements: [])
    }

    /// A list of `elements`, built bottom up in O(n) with nodes seven eighths full.
    init(_ elements: some Collection<Element>, leafCapacity: Int = 512, innerCapacity: Int = 64) {
        self.init(leafCapacity: leafCapacity, innerCapacity: innerCapacity)
        guard !elements.isEmpty else { return }
        let all = Array(elements)
        let leafFill = Swift.max(1, leafCapacity * 7 / 8)
        var level: [Node] = stride(from: 0, to: all.count, by: leafFill).map {
            Node(elements: Array(all[$0..<Swift.min(all.count, $0 + leafFill)]))
        }
        let innerFill = Swift.max(2, innerCapacity * 7 / 8)
        while level.count > 1 {
            level = stride(from: 0, to: level.count, by: innerFill).map {
                Node(children: Array(level[$0..<Swift.min(level.count, $0 + innerFill)]))
            }
        }
        root = level[0]
    }

    // MARK: Reading

    /// How many elements there are.
    var count: Int { root.count }

    /// Whether there are none.
    var isEmpty: Bool { root.count == 0 }

    /// The element at `index`: O(log n).
    subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "index \(index) out of a counted tree of \(count)")
        var node = root
        var index = index
        while !node.isLeaf {
            var child = 0
            while index >= node.counts[child] { index -= node.counts[child]; child += 1 }
            node = node.children[child]
        }
        return node.elements[index]
    }

    /// The first element, if any.
    var first: Element? {
        isEmpty ? nil : Self.first(of: root)
    }

    /// The last element, if any.
    var last: Element? {
        guard !isEmpty else { return nil }
        var node = root
        while !node.isLeaf { node = node.children[node.children.count - 1] }
        return node.elements[node.elements.count - 1]
    }

    private static func first(of node: Node) -> Element {
        var node = node
        while !node.isLeaf { node = node.children[0] }
        return node.elements[0]
    }

    /// The first index whose element satisfies `isAfter` (the count when none does), for a
    /// predicate false for a prefix of the list and true for the rest: O(log n) calls.
    func partitioningIndex(where isAfter: (Element) throws -> Bool) rethrows -> Int {
        var node = root
        var base = 0
        while !node.isLeaf {
            // The first child whose first element is after; the answer is in the one before it.
            var low = 1, high = node.children.count
            while low < high {
                let mid = (low + high) / 2
                if try isAfter(Self.first(of: node.children[mid])) { high = mid } else { low = mid + 1 }
            }
            for child in 0..<(low - 1) { base += node.counts[child] }
            node = node.children[low - 1]
        }
        var low = 0, high = node.elements.count
        while low < high {
            let mid = (low + high) / 2
            if try isAfter(node.elements[mid]) { high = mid } else { low = mid + 1 }
        }
        return base + low
    }

    /// Calls `body` with the elements from `start` on, in order, until it returns false.
    func forEach(from start: Int = 0, while body: (Element) throws -> Bool) rethrows {
        guard start < count else { return }
        _ = try Self.visit(root, skipping: Swift.max(0, start), body)
    }

    /// Returns false once `body` did.
    private static func visit(_ node: Node, skipping: Int, _ body: (Element) throws -> Bool) rethrows -> Bool {
        if node.isLeaf {
            for element in node.elements[skipping...] {
                guard try body(element) else { return false }
            }
            return true
        }
        var skipping = skipping
        for (index, child) in node.children.enumerated() {
            if skipping >= node.counts[index] { skipping -= node.counts[index]; continue }
            guard try visit(child, skipping: skipping, body) else { return false }
            skipping = 0
        }
        return true
    }

    /// The elements in `range`, in order: O(log n + range.count).
    func elements(in range: Range<Int>) -> [Element] {
        var result: [Element] = []
        result.reserveCapacity(range.count)
        guard !range.isEmpty else { return result }
        forEach(from: range.lowerBound) { element in
            result.append(element)
            return result.count < range.count
        }
        return result
    }

    // MARK: Changing

    /// Inserts `element` at `index` (0...count): O(log n).
    mutating func insert(_ element: Element, at index: Int) {
        precondition(index >= 0 && index <= count, "index \(index) out of a counted tree of \(count)")
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        if let right = insert(element, at: index, into: root) {
            root = Node(children: [root, right])
        }
    }

    /// Appends `element`.
    mutating func append(_ element: Element) { insert(element, at: count) }

    /// Inserts into `node` (not shared); returns the new right half when `node` split.
    private func insert(_ element: Element, at index: Int, into node: Node) -> Node? {
        node.count += 1
        if node.isLeaf {
            node.elements.insert(element, at: index)
            guard node.elements.count > leafCapacity else { return nil }
            let half = node.elements.count / 2
            let right = Node(elements: Array(node.elements[half...]))
            node.elements.removeSubrange(half...)
            node.count = node.elements.count
            return right
        }
        var child = 0
        var index = index
        while child < node.children.count - 1, index > node.counts[child] { index -= node.counts[child]; child += 1 }
        if !isKnownUniquelyReferenced(&node.children[child]) { node.children[child] = node.children[child].copy() }
        node.counts[child] += 1
        guard let split = insert(element, at: index, into: node.children[child]) else { return nil }
        node.counts[child] = node.children[child].count
        node.children.insert(split, at: child + 1)
        node.counts.insert(split.count, at: child + 1)
        guard node.children.count > innerCapacity else { return nil }
        let half = node.children.count / 2
        let right = Node(children: Array(node.children[half...]))
        node.children.removeSubrange(half...)
        node.counts.removeSubrange(half...)
        node.count -= right.count
        return right
    }

    /// Removes and returns the element at `index`: O(log n).
    @discardableResult
    mutating func remove(at index: Int) -> Element {
        precondition(index >= 0 && index < count, "index \(index) out of a counted tree of \(count)")
        if !isKnownUniquelyReferenced(&root) { root = root.copy() }
        let element = remove(at: index, from: root)
        while !root.isLeaf, root.children.count <= 1 {
            root = root.children.first ?? Node(elements: [])
        }
        return element
    }

    /// Removes from `node` (not shared), merging a child that falls under a quarter full with a
    /// neighbour when they fit in one node.
    private func remove(at index: Int, from node: Node) -> Element {
        node.count -= 1
        if node.isLeaf { return node.elements.remove(at: index) }
        var child = 0
        var index = index
        while index >= node.counts[child] { index -= node.counts[child]; child += 1 }
        if !isKnownUniquelyReferenced(&node.children[child]) { node.children[child] = node.children[child].copy() }
        let element = remove(at: index, from: node.children[child])
        node.counts[child] -= 1
        let changed = node.children[child]
        if changed.count == 0 {
            node.children.remove(at: child)
            node.counts.remove(at: child)
        } else if size(of: changed) < capacity(of: changed) / 4, node.children.count > 1 {
            let left = child > 0 ? child - 1 : child
            if size(of: node.children[left]) + size(of: node.children[left + 1]) <= capacity(of: changed) {
                merge(left, in: node)
            }
        }
        return element
    }

    private func size(of node: Node) -> Int { node.isLeaf ? node.elements.count : node.children.count }
    private func capacity(of node: Node) -> Int { node.isLeaf ? leafCapacity : innerCapacity }

    /// Moves the entries of child `left + 1` of `node` into child `left`, and drops it.
    private func merge(_ left: Int, in node: Node) {
        if !isKnownUniquelyReferenced(&node.children[left]) { node.children[left] = node.children[left].copy() }
        let target = node.children[left], source = node.children[left + 1]
        if target.isLeaf {
            target.elements.append(contentsOf: source.elements)
        } else {
            target.children.append(contentsOf: source.children)
            target.counts.append(contentsOf: source.counts)
        }
        target.count += source.count
        node.counts[left] = target.count
        node.children.remove(at: left + 1)
        node.counts.remove(at: left + 1)
    }

    // MARK: Checking

    /// Whether the invariants above hold (for tests): nil when they do, else what is wrong.
    func checkInvariants() -> String? {
        var leafDepth: Int? = nil
        func check(_ node: Node, depth: Int, isRoot: Bool) -> String? {
            if node.isLeaf {
                if leafDepth == nil { leafDepth = depth }
                if leafDepth != depth { return "leaves at depths \(leafDepth!) and \(depth)" }
                if node.count != node.elements.count { return "leaf count \(node.count) for \(node.elements.count) elements" }
                if node.elements.count > leafCapacity { return "leaf of \(node.elements.count) over \(leafCapacity)" }
                if node.elements.isEmpty, !isRoot { return "empty leaf below the root" }
                return nil
            }
            if node.children.count > innerCapacity { return "inner node of \(node.children.count) over \(innerCapacity)" }
            if isRoot, node.children.count < 2 { return "root with \(node.children.count) child" }
            if node.counts != node.children.map(\.count) { return "counts \(node.counts) for children \(node.children.map(\.count))" }
            if node.count != node.counts.reduce(0, +) { return "count \(node.count) for counts summing to \(node.counts.reduce(0, +))" }
            for child in node.children {
                if let problem = check(child, depth: depth + 1, isRoot: false) { return problem }
            }
            return nil
        }
        return check(root, depth: 0, isRoot: true)
    }
}

extension CountedTree: Sequence {
    /// Walks the leaves in order.
    struct Iterator: IteratorProtocol {
        /// The inner nodes above the current leaf and the index of the child being walked.
        private var path: [(node: Node, child: Int)] = []
        private var leaf: Node?
        private var position = 0

        init(root: Node) {
            var node = root
            while !node.isLeaf { path.append((node, 0)); node = node.children[0] }
            leaf = node
        }

        mutating func next() -> Element? {
            while let current = leaf {
                if position < current.elements.count {
                    position += 1
                    return current.elements[position - 1]
                }
                leaf = nil
                position = 0
                // Up to the first ancestor with a next child, then down its leftmost path.
                while let (node, child) = path.popLast() {
                    guard child + 1 < node.children.count else { continue }
                    path.append((node, child + 1))
                    var next = node.children[child + 1]
                    while !next.isLeaf { path.append((next, 0)); next = next.children[0] }
                    leaf = next
                    break
                }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(root: root) }

    var underestimatedCount: Int { count }
}
