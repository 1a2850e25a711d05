import JSONCore

/// The in-place applicators (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`) and the unevaluated keywords.
extension Evaluator {
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
}
