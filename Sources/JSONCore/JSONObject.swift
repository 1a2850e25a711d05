/// A JSON object: string keys mapped to ``JSONValue``s, in the order they were added.
///
/// Keys are unique. Adding a new key appends it; setting an existing key replaces its
/// value in place; removing a key keeps the order of the others. A parsed object keeps
/// the order of the source text, so writing it back gives the same text.
///
/// Equality and hashing ignore order, as JSON does: `{"a":1,"b":2}` equals
/// `{"b":2,"a":1}`.
///
/// - Complexity: Lookup is O(1) on average (a hash index is kept once an object
///   has more than a handful of keys; small objects are searched linearly, which is
///   faster for the sizes MCP messages use).
public struct JSONObject: Sendable {
    /// One key and its value.
    ///
    /// `package` so that MCPCore can build objects of known keys without a lookup per key.
    @usableFromInline
    package struct Entry: Sendable {
        @usableFromInline package var key: String
        @usableFromInline package var value: JSONValue

        @inlinable
        package init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    @usableFromInline internal var entries: [Entry]
    /// Positions of keys, kept only when the object is large enough for hashing to pay.
    @usableFromInline internal var index: [String: Int]?

    /// Objects up to this many keys are searched without a hash index.
    @usableFromInline internal static var linearSearchLimit: Int { 12 }

    /// Creates an empty object.
    public init() {
        entries = []
        index = nil
    }

    /// Creates an empty object with room for `minimumCapacity` keys.
    public init(minimumCapacity: Int) {
        self.init()
        entries.reserveCapacity(minimumCapacity)
    }

    /// Creates an object from entries whose keys are known to be unique.
    package init(uniqueEntries: [Entry]) {
        entries = uniqueEntries
        index = nil
        if entries.count > Self.linearSearchLimit {
            rebuildIndex()
        }
    }

    /// Creates an object from key-value pairs, in their order.
    ///
    /// - Parameters:
    ///   - pairs: The keys and values.
    ///   - combine: Called with the existing and the new value when a key repeats; its
    ///     result is kept at the key's first position.
    public init<S: Sequence>(
        _ pairs: S,
        uniquingKeysWith combine: (JSONValue, JSONValue) throws -> JSONValue
    ) rethrows where S.Element == (String, JSONValue) {
        self.init()
        for (key, value) in pairs {
            if let position = position(of: key) {
                entries[position].value = try combine(entries[position].value, value)
            } else {
                append(key, value)
            }
        }
    }

    /// Creates an object from a dictionary, with its keys sorted.
    public init(_ dictionary: [String: JSONValue]) {
        self.init(minimumCapacity: dictionary.count)
        for key in dictionary.keys.sorted() {
            if let value = dictionary[key] {
                append(key, value)
            }
        }
    }

    /// The keys, in order.
    public var keys: [String] { entries.map(\.key) }

    /// The values, in the order of their keys.
    public var values: [JSONValue] { entries.map(\.value) }

    /// The value for `key`, or `nil` if the object has no such key.
    ///
    /// Setting a value for a new key appends it; setting `nil` removes the key.
    public subscript(key: String) -> JSONValue? {
        get {
            position(of: key).map { entries[$0].value }
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Whether the object has `key`.
    public func contains(key: String) -> Bool {
        position(of: key) != nil
    }

    /// Sets the value for `key` and returns the value it replaced, if any.
    ///
    /// A new key is appended; an existing one keeps its position.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        if let position = position(of: key) {
            let old = entries[position].value
            entries[position].value = value
            return old
        }
        append(key, value)
        return nil
    }

    /// Removes `key` and returns its value, if the object had it.
    ///
    /// - Complexity: O(*n*): the keys after it move up one place.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let position = position(of: key) else { return nil }
        let old = entries.remove(at: position).value
        rebuildIndex()
        return old
    }

    /// This object with its keys in ascending order, recursively.
    public func sortedByKey() -> JSONObject {
        JSONObject(uniqueEntries: entries.sorted { $0.key < $1.key }.map { Entry(key: $0.key, value: $0.value.sortedByKey()) })
    }

    // MARK: Internals

    @inlinable
    internal func position(of key: String) -> Int? {
        if let index {
            return index[key]
        }
        let length = key.utf8.count
        return entries.firstIndex { $0.key.utf8.count == length && JSONObject.sameKey($0.key, key) }
    }

    /// Whether two keys are the same sequence of Unicode code points.
    ///
    /// JSON compares names by code points, while Swift's `==` treats canonically
    /// equivalent strings (`"é"` and `"e\u{301}"`) as equal; both checks together are exact,
    /// and the second only runs when the first matches.
    @inlinable
    internal static func sameKey(_ a: String, _ b: String) -> Bool {
        // Equal UTF-8 bytes are equal code points, and nothing else is: compare the bytes.
        let count = a.utf8.count
        guard count == b.utf8.count else { return false }
        let compared = a.utf8.withContiguousStorageIfAvailable { left in
            b.utf8.withContiguousStorageIfAvailable { right in
                sameBytes(left, right, count: count)
            }
        }
        if let compared, let result = compared { return result }
        return a.utf8.elementsEqual(b.utf8)
    }

    @usableFromInline
    internal static func sameBytes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>, count: Int) -> Bool {
        guard let leftBase = left.baseAddress, let rightBase = right.baseAddress else { return count == 0 }
        var index = 0
        let leftRaw = UnsafeRawPointer(leftBase)
        let rightRaw = UnsafeRawPointer(rightBase)
        while index + 8 <= count {
            if leftRaw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                != rightRaw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            {
                return false
            }
            index += 8
        }
        while index < count {
            if leftBase[index] != rightBase[index] { return false }
            index += 1
        }
        return true
    }

    /// Appends a key that is known not to be present.
    @usableFromInline
    internal mutating func append(_ key: String, _ value: JSONValue) {
        entries.append(Entry(key: key, value: value))
        if index != nil {
            index?[key] = entries.count - 1
        } else if entries.count > Self.linearSearchLimit {
            rebuildIndex()
        }
    }

    private mutating func rebuildIndex() {
        guard entries.count > Self.linearSearchLimit else {
            index = nil
            return
        }
        var rebuilt = [String: Int](minimumCapacity: entries.count)
        for (position, entry) in entries.enumerated() {
            rebuilt[entry.key] = position
        }
        index = rebuilt
    }
}

extension JSONValue {
    /// This value with the keys of every object in ascending order.
    public func sortedByKey() -> JSONValue {
        switch self {
        case .object(let object):
            return .object(object.sortedByKey())
        case .array(let elements):
            return .array(elements.map { $0.sortedByKey() })
        default:
            return self
        }
    }
}

extension JSONObject: RandomAccessCollection {
    public typealias Element = (key: String, value: JSONValue)
    public typealias Index = Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { entries.count }

    public subscript(position: Int) -> (key: String, value: JSONValue) {
        (entries[position].key, entries[position].value)
    }
}

extension JSONObject: Equatable {
    /// Whether both objects have the same keys with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var sameOrder = true
        for position in lhs.entries.indices where !JSONObject.sameKey(lhs.entries[position].key, rhs.entries[position].key) {
            sameOrder = false
            break
        }
        if sameOrder {
            return lhs.entries.indices.allSatisfy { lhs.entries[$0].value == rhs.entries[$0].value }
        }
        for (key, value) in lhs {
            guard let other = rhs[key], other == value else { return false }
        }
        return true
    }
}

extension JSONObject: Hashable {
    public func hash(into hasher: inout Hasher) {
        // Order-independent: combine per-entry hashes with a commutative operation.
        var combined = 0
        for (key, value) in self {
            var entry = Hasher()
            entry.combine(key)
            entry.combine(value)
            combined &+= entry.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// Creates an object whose keys keep the order they are written in.
    ///
    /// A key written twice keeps its first position and its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(minimumCapacity: elements.count)
        for (key, value) in elements {
            self[key] = value
        }
    }
}
