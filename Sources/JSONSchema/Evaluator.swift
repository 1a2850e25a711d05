import JSONCore

/// What in-place subschemas evaluated, for `unevaluatedProperties` and `unevaluatedItems`.
struct Annotations {
    var allProperties = false
    var properties: Set<String> = []
    var allItems = false
    var itemPrefix = 0
    var items: Set<Int> = []

    mutating func merge(_ other: Annotations) {
        if other.allProperties { allProperties = true }
        if !allProperties && !other.properties.isEmpty { properties.formUnion(other.properties) }
        if other.allItems { allItems = true }
        itemPrefix = max(itemPrefix, other.itemPrefix)
        if !allItems && !other.items.isEmpty { items.formUnion(other.items) }
    }

    func isEvaluated(property: String) -> Bool { allProperties || properties.contains(property) }
    func isEvaluated(item: Int) -> Bool { allItems || item < itemPrefix || items.contains(item) }
}

/// One validation run. In the fast mode (`collecting == false`) it stops at the first failure and
/// builds no locations; in the collecting mode it records every failure with its pointers.
struct Evaluator {
    let program: Program
    let options: JSONSchema.Options
    let collecting: Bool
    var steps: Int
    var depth = 0
    var instanceDepth = 0
    /// Set when a limit stops evaluation: the result is then invalid, whatever `not` says.
    var stopped = false
    /// The error that explains why evaluation stopped.
    var stopError: ValidationError?
    var errors: [ValidationError] = []
    var instancePath: [String] = []
    var keywordPath: [String] = []
    var activeReferences: [(node: Int, instanceDepth: Int)] = []
    var dynamicScope: [Int] = []

    init(program: Program, options: JSONSchema.Options, collecting: Bool) {
        self.program = program
        self.options = options
        self.collecting = collecting
        self.steps = options.maximumEvaluationSteps
    }

    mutating func run(_ instance: JSONValue) -> Bool {
        var annotations = Annotations()
        let valid = evaluate(0, instance, &annotations, want: false)
        if let stopError { errors.append(stopError) }
        return valid && !stopped
    }

    // MARK: Errors and paths

    mutating func fail(_ keyword: String, at detail: String? = nil, _ message: @autoclosure () -> String) {
        guard collecting else { return }
        var location = keywordPath
        if !keyword.isEmpty { location.append(keyword) }
        if let detail { location.append(detail) }
        errors.append(
            ValidationError(
                instanceLocation: JSONPointer(tokens: instancePath),
                keywordLocation: JSONPointer(tokens: location),
                keyword: keyword.isEmpty ? (keywordPath.last ?? "") : keyword, message: message()))
    }

    mutating func stop(_ keyword: String, _ message: String) {
        if !stopped {
            // Kept apart from `errors`, which `not`, `anyOf` and `if` may discard.
            let mark = errors.count
            fail(keyword, message)
            if errors.count > mark { stopError = errors.removeLast() }
        }
        stopped = true
    }

    @inline(__always) mutating func push(_ keyword: String) {
        if collecting { keywordPath.append(keyword) }
    }

    @inline(__always) mutating func push(_ keyword: String, _ second: String) {
        if collecting {
            keywordPath.append(keyword)
            keywordPath.append(second)
        }
    }

    @inline(__always) mutating func pop(_ count: Int = 1) {
        if collecting { keywordPath.removeLast(count) }
    }

    @inline(__always) mutating func enterInstance(_ token: @autoclosure () -> String) {
        instanceDepth += 1
        if collecting { instancePath.append(token()) }
    }

    @inline(__always) mutating func leaveInstance() {
        instanceDepth -= 1
        if collecting { instancePath.removeLast() }
    }

    /// Discards errors recorded since `mark` (for subschemas whose failure is expected).
    @inline(__always) mutating func discardErrors(since mark: Int) {
        if collecting && errors.count > mark { errors.removeSubrange(mark...) }
    }

    func isFalse(_ index: Int) -> Bool { program.nodes[index].spec.boolean == false }

    // MARK: Evaluation

    /// Evaluates subschema `index` against `instance`; merges what it evaluated into
    /// `annotations` when `want` is set and the subschema is valid.
    mutating func evaluate(_ index: Int, _ instance: JSONValue, _ annotations: inout Annotations, want: Bool) -> Bool {
        steps -= 1
        if steps < 0 || stopped {
            stop("", "validation stopped: it took more than \(options.maximumEvaluationSteps) steps")
            return false
        }
        let node = program.nodes[index]
        if let flag = node.spec.boolean {
            if !flag { fail("", "no value is allowed here (the schema is false)") }
            return flag
        }
        if depth >= options.maximumEvaluationDepth {
            stop("", "validation stopped: subschemas nest more than \(options.maximumEvaluationDepth) levels deep")
            return false
        }
        depth += 1
        defer { depth -= 1 }
        var pushedScope = false
        if program.usesDynamicScope && dynamicScope.last != node.spec.resource {
            dynamicScope.append(node.spec.resource)
            pushedScope = true
        }
        defer { if pushedScope { dynamicScope.removeLast() } }

        let want = want || node.spec.hasUnevaluated
        var local = Annotations()
        var valid = true

        if let slot = node.spec.ref {
            push("$ref")
            let ok = follow(program.referenceTargets[slot], instance, &local, want: want)
            pop()
            if !ok {
                valid = false
                if !collecting { return false }
            }
        }
        if let slot = node.spec.dynamicRef {
            var target = program.referenceTargets[slot]
            if let anchor = node.spec.dynamicRefAnchor, program.nodes[target].spec.dynamicAnchor == anchor {
                for resource in dynamicScope {
                    if let found = program.dynamicAnchors[resource][anchor] {
                        target = found
                        break
                    }
                }
            }
            push("$dynamicRef")
            let ok = follow(target, instance, &local, want: want)
            pop()
            if !ok {
                valid = false
                if !collecting { return false }
            }
        }
        if !checkGeneric(node, instance) {
            valid = false
            if !collecting { return false }
        }
        switch instance {
        case .int, .double:
            if node.spec.hasNumberKeywords && !checkNumber(node, instance) {
                valid = false
                if !collecting { return false }
            }
        case .string(let text):
            if node.spec.hasStringKeywords && !checkString(node, text) {
                valid = false
                if !collecting { return false }
            }
        case .array(let elements):
            if node.spec.hasArrayKeywords && !checkArray(node, elements, &local, want: want) {
                valid = false
                if !collecting { return false }
            }
        case .object(let object):
            if node.spec.hasObjectKeywords && !checkObject(node, object, &local, want: want) {
                valid = false
                if !collecting { return false }
            }
        default:
            break
        }
        if node.spec.hasApplicators && !checkApplicators(node, instance, &local, want: want) {
            valid = false
            if !collecting { return false }
        }
        if node.spec.hasUnevaluated && valid && !checkUnevaluated(node, instance, &local) {
            valid = false
        }
        if valid && want { annotations.merge(local) }
        return valid
    }

    /// Follows a reference, refusing to re-enter a target already in evaluation for the same
    /// instance location (which could only loop forever).
    mutating func follow(_ target: Int, _ instance: JSONValue, _ annotations: inout Annotations, want: Bool) -> Bool {
        for active in activeReferences where active.node == target && active.instanceDepth == instanceDepth {
            stop(
                "",
                "validation stopped: the reference to \"\(program.nodes[target].spec.location)\" loops back to itself without moving into the instance"
            )
            return false
        }
        activeReferences.append((target, instanceDepth))
        defer { activeReferences.removeLast() }
        var inner = Annotations()
        let ok = evaluate(target, instance, &inner, want: want)
        if ok && want { annotations.merge(inner) }
        return ok
    }

    // MARK: Helpers

    /// The first pair of equal items (JSON Schema equality: `1` equals `1.0`), if any.
    mutating func duplicate(in elements: [JSONValue]) -> (Int, Int)? {
        steps -= elements.count
        if elements.count < 16 {
            for i in elements.indices {
                for j in (i + 1)..<elements.count where schemaEqual(elements[i], elements[j]) {
                    return (i, j)
                }
            }
            return nil
        }
        // Bucket by a hash that is coarser than JSON Schema equality (Swift's String equality is
        // canonical equivalence), then compare candidates exactly.
        var buckets: [JSONValue: [Int]] = [:]
        for (position, element) in elements.enumerated() {
            let key = canonical(element)
            for earlier in buckets[key, default: []] where schemaEqual(elements[earlier], element) {
                return (earlier, position)
            }
            buckets[key, default: []].append(position)
        }
        return nil
    }
}

/// Whether two strings have the same code points (Swift's `==` compares by canonical
/// equivalence, JSON Schema by code points).
func sameCodePoints(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
}

/// Whether two property names are the same key. Like ``JSONObject``, this uses Swift's `==`
/// (canonical equivalence), after a cheap length check.
@inline(__always) func sameKey(_ a: String, _ b: String) -> Bool {
    a.utf8.count == b.utf8.count && a == b
}

/// The index of `name` in `names`, compared by code points.
@inline(__always) func position(of name: String, in names: [String]) -> Int? {
    for index in names.indices where sameKey(names[index], name) { return index }
    return nil
}

/// Whether `object` has the key `name`.
@inline(__always) func has(_ object: JSONObject, _ name: String) -> Bool {
    if object.count > 12 { return object.contains(key: name) }
    for (key, _) in object where sameKey(key, name) { return true }
    return false
}

/// JSON Schema equality: numbers by value (`1` equals `1.0`), strings by code points (Swift's
/// `==` would also equate canonically equivalent strings such as "é" and "e\u{301}"), arrays
/// element by element, objects key by key in any order.
func schemaEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
    switch (a, b) {
    case (.string(let x), .string(let y)):
        return sameCodePoints(x, y)
    case (.array(let x), .array(let y)):
        return x.count == y.count && zip(x, y).allSatisfy { schemaEqual($0, $1) }
    case (.object(let x), .object(let y)):
        guard x.count == y.count else { return false }
        for (offset, (key, value)) in x.enumerated() {
            let sameOrder = sameKey(y[offset].key, key)
            guard
                let position = sameOrder ? offset : y.firstIndex(where: { sameKey($0.key, key) }),
                schemaEqual(value, y[position].value)
            else { return false }
        }
        return true
    case (.int, _), (.double, _):
        return a.isNumericallyEqual(to: b)
    default:
        return a == b
    }
}

/// A form of `value` in which JSON Schema's equality is structural equality: integral doubles
/// become integers.
func canonical(_ value: JSONValue) -> JSONValue {
    switch value {
    case .double(let d):
        if let exact = Int(exactly: d) { return .int(exact) }
        return value
    case .array(let list): return .array(list.map(canonical))
    case .object(let object):
        var result = JSONObject(minimumCapacity: object.count)
        for (key, item) in object { result[key] = canonical(item) }
        return .object(result)
    default: return value
    }
}

/// Compares a number instance with a bound: negative, zero or positive.
func compare(_ instance: JSONValue, _ bound: Bound) -> Int {
    switch (instance, bound) {
    case (.int(let a), .int(let b)):
        return a < b ? -1 : (a == b ? 0 : 1)
    default:
        let a = instance.doubleValue ?? 0
        let b = bound.doubleValue
        return a < b ? -1 : (a == b ? 0 : 1)
    }
}

func isMultiple(_ instance: JSONValue, of divisor: Bound) -> Bool {
    if case .int(let a) = instance, case .int(let b) = divisor {
        return a % b == 0
    }
    guard let value = instance.doubleValue else { return true }
    let d = divisor.doubleValue
    let quotient = value / d
    guard quotient.isFinite else { return false }
    let rounded = quotient.rounded()
    return abs(quotient - rounded) <= 1e-9 * max(1, abs(quotient))
}

func plural(_ count: Int, _ noun: String) -> String {
    if count == 1 { return "1 \(noun)" }
    if noun.hasSuffix("y") { return "\(count) \(noun.dropLast())ies" }
    return "\(count) \(noun)s"
}

/// A short JSON rendering of `value` for messages.
func preview(_ value: JSONValue, limit: Int = 60) -> String {
    let text: String
    switch value {
    case .int(let n): text = String(n)
    case .double(let d): text = formatDouble(d)
    default: text = (try? value.jsonString()) ?? value.typeName
    }
    if text.unicodeScalars.count <= limit { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit))) + "…"
}

/// The value's type and, for scalars, its value: `string "3"`, `integer 3`, `object`.
func describe(_ value: JSONValue) -> String {
    switch value {
    case .null: return "null"
    case .bool(let flag): return "boolean \(flag)"
    case .int, .double, .string: return "\(value.typeName) \(preview(value))"
    case .array(let list): return "array of \(plural(list.count, "item"))"
    case .object(let object): return "object with \(plural(object.count, "property"))"
    }
}

func list(_ values: [JSONValue]) -> String {
    let shown = values.prefix(10).map { preview($0, limit: 40) }.joined(separator: ", ")
    return values.count > 10 ? shown + ", … (\(values.count) in all)" : shown
}
