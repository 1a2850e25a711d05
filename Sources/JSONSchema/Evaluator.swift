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

    mutating func checkGeneric(_ node: Node, _ instance: JSONValue) -> Bool {
        var valid = true
        if let types = node.spec.types {
            let matches: Bool
            switch instance {
            case .null: matches = types.contains(.null)
            case .bool: matches = types.contains(.boolean)
            case .int: matches = types.contains(.integer) || types.contains(.number)
            case .double(let d):
                matches = types.contains(.number) || (types.contains(.integer) && d.isFinite && d == d.rounded())
            case .string: matches = types.contains(.string)
            case .array: matches = types.contains(.array)
            case .object: matches = types.contains(.object)
            }
            if !matches {
                fail("type", "expected \(types.text), found \(describe(instance))")
                if !collecting { return false }
                valid = false
            }
        }
        if let values = node.spec.enumValues {
            var found = false
            for value in values where schemaEqual(value, instance) {
                found = true
                break
            }
            if !found {
                fail("enum", "\(describe(instance)) is not one of the allowed values: \(list(values))")
                if !collecting { return false }
                valid = false
            }
        }
        if let constant = node.spec.constValue, !schemaEqual(constant, instance) {
            fail("const", "expected exactly \(preview(constant)), found \(describe(instance))")
            valid = false
        }
        return valid
    }

    mutating func checkNumber(_ node: Node, _ instance: JSONValue) -> Bool {
        var valid = true
        if let bound = node.spec.minimum, compare(instance, bound) < 0 {
            fail("minimum", "\(preview(instance)) is less than the minimum \(bound.text)")
            valid = false
        }
        if let bound = node.spec.maximum, compare(instance, bound) > 0 {
            fail("maximum", "\(preview(instance)) is greater than the maximum \(bound.text)")
            valid = false
        }
        if let bound = node.spec.exclusiveMinimum, compare(instance, bound) <= 0 {
            fail("exclusiveMinimum", "\(preview(instance)) must be greater than \(bound.text)")
            valid = false
        }
        if let bound = node.spec.exclusiveMaximum, compare(instance, bound) >= 0 {
            fail("exclusiveMaximum", "\(preview(instance)) must be less than \(bound.text)")
            valid = false
        }
        if let divisor = node.spec.multipleOf, !isMultiple(instance, of: divisor) {
            fail("multipleOf", "\(preview(instance)) is not a multiple of \(divisor.text)")
            valid = false
        }
        return valid
    }

    mutating func checkString(_ node: Node, _ text: String) -> Bool {
        var valid = true
        if node.spec.minLength != nil || node.spec.maxLength != nil {
            let bytes = text.utf8.count
            // A string has between bytes/4 and bytes code points: count only when that decides.
            let undecided =
                (node.spec.minLength.map { (bytes + 3) / 4 < $0 } ?? false)
                || (node.spec.maxLength.map { bytes > $0 } ?? false)
            let length = undecided ? text.unicodeScalars.count : bytes
            if let minimum = node.spec.minLength, length < minimum {
                fail(
                    "minLength",
                    "string is \(plural(length, "character")) long, shorter than the minimum length \(minimum)")
                valid = false
            }
            if let maximum = node.spec.maxLength, length > maximum {
                fail(
                    "maxLength",
                    "string is \(plural(length, "character")) long, longer than the maximum length \(maximum)")
                valid = false
            }
        }
        if let pattern = node.spec.pattern {
            switch search(pattern, text) {
            case .found: break
            case .notFound:
                fail("pattern", "\(describe(.string(text))) does not match the pattern \"\(pattern.source)\"")
                valid = false
            case .budgetExceeded:
                stopPattern("pattern", pattern)
                valid = false
            }
        }
        return valid
    }

    mutating func search(_ regex: ECMARegex, _ text: String) -> ECMARegex.Outcome {
        var budget = min(options.maximumPatternSteps, max(steps, 0))
        let before = budget
        let outcome = regex.search(text, budget: &budget)
        steps -= (before - budget) / 16  // Regex steps are far cheaper than subschema steps.
        return outcome
    }

    mutating func stopPattern(_ keyword: String, _ pattern: ECMARegex) {
        stop(
            keyword,
            "validation stopped: matching the pattern \"\(pattern.source)\" took more than \(options.maximumPatternSteps) steps"
        )
    }

    mutating func checkArray(
        _ node: Node, _ elements: [JSONValue], _ annotations: inout Annotations, want: Bool
    ) -> Bool {
        var valid = true
        if let minimum = node.spec.minItems, elements.count < minimum {
            fail("minItems", "array has \(plural(elements.count, "item")), fewer than the minimum \(minimum)")
            if !collecting { return false }
            valid = false
        }
        if let maximum = node.spec.maxItems, elements.count > maximum {
            fail("maxItems", "array has \(plural(elements.count, "item")), more than the maximum \(maximum)")
            if !collecting { return false }
            valid = false
        }
        if node.spec.uniqueItems, let (first, second) = duplicate(in: elements) {
            fail("uniqueItems", "items \(first) and \(second) are equal; every item must be unique")
            if !collecting { return false }
            valid = false
        }
        var scratch = Annotations()
        let prefixCount = min(node.spec.prefixItems.count, elements.count)
        for position in 0..<prefixCount {
            push(node.spec.prefixKeyword, String(position))
            enterInstance(String(position))
            let ok = evaluate(node.spec.prefixItems[position], elements[position], &scratch, want: false)
            leaveInstance()
            pop(2)
            if !ok {
                valid = false
                if !collecting { return false }
            }
        }
        if want { annotations.itemPrefix = max(annotations.itemPrefix, prefixCount) }
        if let items = node.spec.items, elements.count > prefixCount {
            if isFalse(items) {
                fail(
                    node.spec.itemsKeyword,
                    "array has \(plural(elements.count, "item")); at most \(node.spec.prefixItems.count) are allowed")
                if !collecting { return false }
                valid = false
            } else {
                push(node.spec.itemsKeyword)
                for position in prefixCount..<elements.count {
                    enterInstance(String(position))
                    let ok = evaluate(items, elements[position], &scratch, want: false)
                    leaveInstance()
                    if !ok {
                        valid = false
                        if !collecting {
                            pop()
                            return false
                        }
                    }
                }
                pop()
            }
            if want { annotations.allItems = true }
        }
        if let contains = node.spec.contains {
            var matches = 0
            let mark = errors.count
            push("contains")
            for (position, element) in elements.enumerated() {
                enterInstance(String(position))
                if evaluate(contains, element, &scratch, want: false) {
                    matches += 1
                    if want && !node.spec.isDraft07 { annotations.items.insert(position) }
                }
                leaveInstance()
                if !want && !collecting && node.spec.maxContains == nil && matches >= (node.spec.minContains ?? 1) { break }
            }
            pop()
            discardErrors(since: mark)
            if stopped { return false }
            let minimum = node.spec.minContains ?? 1
            if matches < minimum {
                if node.spec.minContains == nil {
                    fail("contains", "array has no item that matches the \"contains\" schema")
                } else {
                    fail(
                        "minContains",
                        "array has \(plural(matches, "item")) matching \"contains\", fewer than minContains \(minimum)")
                }
                valid = false
            }
            if let maximum = node.spec.maxContains, matches > maximum {
                fail(
                    "maxContains",
                    "array has \(plural(matches, "item")) matching \"contains\", more than maxContains \(maximum)")
                valid = false
            }
        }
        return valid
    }

    mutating func checkObject(
        _ node: Node, _ object: JSONObject, _ annotations: inout Annotations, want: Bool
    ) -> Bool {
        var valid = true
        for name in node.spec.required where !has(object, name) {
            fail("required", "missing required property \"\(name)\"")
            if !collecting { return false }
            valid = false
        }
        if let minimum = node.spec.minProperties, object.count < minimum {
            fail("minProperties", "object has \(plural(object.count, "property")), fewer than the minimum \(minimum)")
            if !collecting { return false }
            valid = false
        }
        if let maximum = node.spec.maxProperties, object.count > maximum {
            fail("maxProperties", "object has \(plural(object.count, "property")), more than the maximum \(maximum)")
            if !collecting { return false }
            valid = false
        }
        for (offset, name) in node.spec.dependentRequiredKeys.enumerated() where has(object, name) {
            for needed in node.spec.dependentRequiredValues[offset] where !has(object, needed) {
                fail(
                    node.spec.dependentRequiredKeyword, at: name,
                    "property \"\(needed)\" is required when \"\(name)\" is present")
                if !collecting { return false }
                valid = false
            }
        }
        var scratch = Annotations()
        // Declared properties: one pass over the instance's keys.
        let declared = node.spec.propertyNames
        for (name, value) in object where !declared.isEmpty {
            guard let offset = position(of: name, in: declared) else { continue }
            push("properties", name)
            enterInstance(name)
            let ok = evaluate(node.spec.propertySchemas[offset], value, &scratch, want: false)
            leaveInstance()
            pop(2)
            if !ok {
                valid = false
                if !collecting { return false }
            }
            if want { annotations.properties.insert(name) }
        }
        if !node.spec.patternRegexes.isEmpty || node.spec.additionalProperties != nil || node.spec.propertyNamesSchema != nil {
            for (name, value) in object {
                steps -= 1
                var matched = node.spec.needsPropertyLookup && position(of: name, in: declared) != nil
                for (offset, regex) in node.spec.patternRegexes.enumerated() {
                    switch search(regex, name) {
                    case .notFound: continue
                    case .budgetExceeded:
                        stopPattern("patternProperties", regex)
                        return false
                    case .found: break
                    }
                    matched = true
                    push("patternProperties", regex.source)
                    enterInstance(name)
                    let ok = evaluate(node.spec.patternSchemas[offset], value, &scratch, want: false)
                    leaveInstance()
                    pop(2)
                    if !ok {
                        valid = false
                        if !collecting { return false }
                    }
                    if want { annotations.properties.insert(name) }
                }
                if let additional = node.spec.additionalProperties, !matched {
                    if isFalse(additional) {
                        enterInstance(name)
                        fail("additionalProperties", "property \"\(name)\" is not allowed (no schema declares it)")
                        leaveInstance()
                        valid = false
                        if !collecting { return false }
                    } else {
                        push("additionalProperties")
                        enterInstance(name)
                        let ok = evaluate(additional, value, &scratch, want: false)
                        leaveInstance()
                        pop()
                        if !ok {
                            valid = false
                            if !collecting { return false }
                        }
                    }
                }
                if let names = node.spec.propertyNamesSchema {
                    push("propertyNames")
                    enterInstance(name)
                    let ok = evaluate(names, .string(name), &scratch, want: false)
                    leaveInstance()
                    pop()
                    if !ok {
                        valid = false
                        if !collecting { return false }
                    }
                }
            }
            if want && node.spec.additionalProperties != nil { annotations.allProperties = true }
        }
        for (offset, name) in node.spec.dependentSchemaKeys.enumerated() where has(object, name) {
            push(node.spec.dependentSchemasKeyword, name)
            let ok = evaluate(node.spec.dependentSchemaNodes[offset], .object(object), &annotations, want: want)
            pop(2)
            if !ok {
                valid = false
                if !collecting { return false }
            }
        }
        return valid
    }

    mutating func checkApplicators(
        _ node: Node, _ instance: JSONValue, _ annotations: inout Annotations, want: Bool
    ) -> Bool {
        var valid = true
        for (position, index) in node.spec.allOf.enumerated() {
            push("allOf", String(position))
            let ok = evaluate(index, instance, &annotations, want: want)
            pop(2)
            if !ok {
                valid = false
                if !collecting { return false }
            }
        }
        if !node.spec.anyOf.isEmpty {
            let mark = errors.count
            var any = false
            for (position, index) in node.spec.anyOf.enumerated() {
                push("anyOf", String(position))
                let ok = evaluate(index, instance, &annotations, want: want)
                pop(2)
                if ok {
                    any = true
                    if !want && !collecting { break }
                }
            }
            if any {
                discardErrors(since: mark)
            } else {
                fail("anyOf", "\(describe(instance)) matches none of the \(node.spec.anyOf.count) alternatives in anyOf")
                valid = false
                if !collecting { return false }
            }
        }
        if !node.spec.oneOf.isEmpty {
            let mark = errors.count
            var matching: [Int] = []
            var branch = Annotations()
            for (position, index) in node.spec.oneOf.enumerated() {
                push("oneOf", String(position))
                var inner = Annotations()
                let ok = evaluate(index, instance, &inner, want: want)
                pop(2)
                if ok {
                    matching.append(position)
                    branch = inner
                    if matching.count > 1 && !collecting { break }
                }
            }
            if matching.count == 1 {
                discardErrors(since: mark)
                if want { annotations.merge(branch) }
            } else if matching.isEmpty {
                fail("oneOf", "\(describe(instance)) matches none of the \(node.spec.oneOf.count) alternatives in oneOf")
                valid = false
                if !collecting { return false }
            } else {
                discardErrors(since: mark)
                fail(
                    "oneOf",
                    "\(describe(instance)) matches alternatives \(matching.map(String.init).joined(separator: " and ")) of oneOf; it must match exactly one"
                )
                valid = false
                if !collecting { return false }
            }
        }
        if let not = node.spec.not {
            let mark = errors.count
            var ignored = Annotations()
            push("not")
            let ok = evaluate(not, instance, &ignored, want: false)
            pop()
            discardErrors(since: mark)
            if stopped { return false }
            if ok {
                fail("not", "\(describe(instance)) must not match the schema in \"not\"")
                valid = false
                if !collecting { return false }
            }
        }
        if let condition = node.spec.ifSchema {
            let mark = errors.count
            var conditionAnnotations = Annotations()
            push("if")
            let holds = evaluate(condition, instance, &conditionAnnotations, want: want)
            pop()
            discardErrors(since: mark)
            if stopped { return false }
            if holds && want { annotations.merge(conditionAnnotations) }
            if let branch = holds ? node.spec.thenSchema : node.spec.elseSchema {
                push(holds ? "then" : "else")
                let ok = evaluate(branch, instance, &annotations, want: want)
                pop()
                if !ok {
                    valid = false
                    if !collecting { return false }
                }
            }
        }
        return valid
    }

    mutating func checkUnevaluated(_ node: Node, _ instance: JSONValue, _ annotations: inout Annotations) -> Bool {
        var valid = true
        if let unevaluated = node.spec.unevaluatedItems, case .array(let elements) = instance {
            let evaluated = annotations
            let members = elements.enumerated().lazy
                .filter { !evaluated.isEvaluated(item: $0.offset) }
                .map { (key: String($0.offset), value: $0.element, label: "item \($0.offset)") }
            valid = applyUnevaluated("unevaluatedItems", unevaluated, to: members)
            annotations.allItems = true
        }
        if !valid && !collecting { return false }
        if let unevaluated = node.spec.unevaluatedProperties, case .object(let object) = instance {
            let evaluated = annotations
            let members = object.lazy
                .filter { !evaluated.isEvaluated(property: $0.key) }
                .map { (key: $0.key, value: $0.value, label: "property \"\($0.key)\"") }
            valid = applyUnevaluated("unevaluatedProperties", unevaluated, to: members) && valid
            annotations.allProperties = true
        }
        return valid
    }

    /// Applies an `unevaluatedItems`/`unevaluatedProperties` schema to the members no other
    /// keyword evaluated; a `false` schema fails each of them by name.
    private mutating func applyUnevaluated(
        _ keyword: String, _ schema: Int, to members: some Sequence<(key: String, value: JSONValue, label: String)>
    ) -> Bool {
        let isFalseSchema = isFalse(schema)
        var valid = true
        var scratch = Annotations()
        push(keyword)
        for member in members {
            enterInstance(member.key)
            let ok: Bool
            if isFalseSchema {
                pop()
                fail(keyword, "\(member.label) is not allowed (no schema evaluates it)")
                push(keyword)
                ok = false
            } else {
                ok = evaluate(schema, member.value, &scratch, want: false)
            }
            leaveInstance()
            if !ok {
                valid = false
                if !collecting { break }
            }
        }
        pop()
        return valid
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
