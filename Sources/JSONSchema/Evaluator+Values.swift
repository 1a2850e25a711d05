import JSONCore

/// The keywords of any value, of numbers and of strings (patterns included).
extension Evaluator {
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
}
