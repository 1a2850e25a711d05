import JSONCore

/// The keywords of arrays and objects.
extension Evaluator {
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
}
