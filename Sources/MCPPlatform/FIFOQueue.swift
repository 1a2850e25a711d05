/// A first-in, first-out queue over one array: elements are taken from a moving head, and the
/// taken prefix is dropped once it is most of the array (so taking costs no shifting, and a
/// long-lived queue does not keep what it has handed out).
@usableFromInline
package struct FIFOQueue<Element> {
    @usableFromInline var elements: [Element] = []
    @usableFromInline var head = 0

    @inlinable
    package init() {}

    /// The number of elements queued.
    @inlinable
    package var count: Int { elements.count - head }

    /// Whether nothing is queued.
    @inlinable
    package var isEmpty: Bool { head == elements.count }

    /// The number of elements the storage holds without growing.
    @inlinable
    package var capacity: Int { elements.capacity }

    /// Queues `element` last.
    @inlinable
    package mutating func append(_ element: Element) {
        elements.append(element)
    }

    /// Takes the first element, or returns `nil` when nothing is queued. Emptied, the queue keeps
    /// its storage; past 1,024 taken elements that are at least half of it, it drops them.
    @inlinable
    package mutating func popFirst() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1024, head * 2 >= elements.count {
            elements.removeSubrange(0..<head)
            head = 0
        }
        return element
    }

    /// Removes every element, keeping the storage or not.
    @inlinable
    package mutating func removeAll(keepingCapacity: Bool = false) {
        elements.removeAll(keepingCapacity: keepingCapacity)
        head = 0
    }
}
