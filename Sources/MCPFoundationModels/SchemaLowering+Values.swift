internal import MCPCore

#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

// Lowering bounds, `enum`/`const` values and `anyOf`/`oneOf` choices.

extension SchemaLowering {
    // MARK: Bounds

    mutating func integerBounds(_ object: JSONObject, at pointer: JSONPointer, consumed: inout Set<String>) -> (Int?, Int?) {
        let (low, lowExclusive, high, highExclusive) = readBounds(object, at: pointer, consumed: &consumed)
        var minimum: Int?
        var maximum: Int?
        if let low {
            let bound = lowExclusive ? (low.rounded(.down) + 1) : low.rounded(.up)
            minimum = Int(exactly: bound)
            if minimum == nil {
                report(.warning, at: pointer, "the lower bound \(low) is out of Int's range; it is not a generation guide")
            }
        }
        if let high {
            let bound = highExclusive ? (high.rounded(.up) - 1) : high.rounded(.down)
            maximum = Int(exactly: bound)
            if maximum == nil {
                report(.warning, at: pointer, "the upper bound \(high) is out of Int's range; it is not a generation guide")
            }
        }
        if let minimum, let maximum, minimum > maximum {
            report(.warning, at: pointer, "no integer lies between the bounds \(minimum) and \(maximum); they are not generation guides")
            return (nil, nil)
        }
        return (minimum, maximum)
    }

    mutating func numberBounds(_ object: JSONObject, at pointer: JSONPointer, consumed: inout Set<String>) -> (Double?, Double?) {
        let (low, lowExclusive, high, highExclusive) = readBounds(object, at: pointer, consumed: &consumed)
        let minimum = low.map { lowExclusive ? $0.nextUp : $0 }
        let maximum = high.map { highExclusive ? $0.nextDown : $0 }
        if let minimum, let maximum, minimum > maximum {
            report(.warning, at: pointer, "the bounds \(minimum) and \(maximum) cross; they are not generation guides")
            return (nil, nil)
        }
        return (minimum, maximum)
    }

    /// `minimum`/`maximum` and the exclusive bounds, in 2020-12 (numbers) and draft-4 (booleans) form.
    mutating func readBounds(
        _ object: JSONObject, at pointer: JSONPointer, consumed: inout Set<String>
    ) -> (Double?, Bool, Double?, Bool) {
        func number(_ keyword: String) -> Double? {
            guard let value = object[keyword] else { return nil }
            consumed.insert(keyword)
            if let number = value.doubleValue { return number }
            if value.boolValue == nil {
                report(.error, at: pointer.appending(keyword), "\"\(keyword)\" must be a number")
            }
            return nil
        }
        var low = number("minimum")
        var high = number("maximum")
        var lowExclusive = false
        var highExclusive = false
        if let exclusive = number("exclusiveMinimum"), low.map({ exclusive >= $0 }) ?? true {
            low = exclusive
            lowExclusive = true
        } else if object["exclusiveMinimum"]?.boolValue == true, low != nil {
            lowExclusive = true
        }
        if let exclusive = number("exclusiveMaximum"), high.map({ exclusive <= $0 }) ?? true {
            high = exclusive
            highExclusive = true
        } else if object["exclusiveMaximum"]?.boolValue == true, high != nil {
            highExclusive = true
        }
        return (low, lowExclusive, high, highExclusive)
    }

    // MARK: enum, const

    mutating func lowerValues(_ values: [JSONValue], at pointer: JSONPointer, name: NameHint, object: JSONObject) -> Lowered {
        var unique: [JSONValue] = []
        for value in values where !unique.contains(value) {
            unique.append(value)
        }
        let isNullable = unique.contains(.null)
        unique.removeAll { $0 == .null }
        guard !unique.isEmpty else {
            report(.warning, at: pointer, "only null is allowed, which cannot be generated; the property is left out instead")
            return Lowered(shape: .string(constant: nil, pattern: nil), isNullable: true)
        }
        let strings = unique.compactMap(\.stringValue)
        let others = unique.filter { $0.stringValue == nil }
        var shapes: [ArgumentShape] = []
        if strings.count == 1 {
            shapes.append(.string(constant: strings[0], pattern: nil))
        } else if strings.count > 1 {
            let choicesName = names.claim(others.isEmpty ? name : .suggested("\(hintText(name))_text"))
            shapes.append(.stringChoices(name: choicesName, description: nil, choices: strings))
        }
        var sawBoolean = false
        for (index, value) in unique.enumerated() {
            switch value {
            case .int(let number):
                shapes.append(.integer(minimum: number, maximum: number))
            case .double(let number):
                if let integer = Int(exactly: number), object["type"]?.stringValue == "integer" {
                    shapes.append(.integer(minimum: integer, maximum: integer))
                } else {
                    shapes.append(.number(minimum: number, maximum: number))
                }
            case .bool:
                if !sawBoolean {
                    shapes.append(.boolean)
                    sawBoolean = true
                    if !unique.contains(.bool(!(value.boolValue ?? false))) {
                        report(
                            .warning, at: values.count == 1 ? pointer : pointer.appending(index),
                            "a single Boolean value cannot be pinned; the model may send either")
                    }
                }
            case .array, .object:
                report(
                    .warning, at: values.count == 1 ? pointer : pointer.appending(index),
                    "an \(value.typeName) value cannot be pinned; it is not offered")
            case .string, .null:
                break
            }
        }
        if shapes.isEmpty {
            report(.error, at: pointer, "none of the allowed values can be generated; a string is used")
            return Lowered(shape: .string(constant: nil, pattern: nil), isNullable: isNullable)
        }
        if shapes.count == 1 {
            return Lowered(shape: shapes[0], isNullable: isNullable)
        }
        if case .stringChoices = shapes.first, others.isEmpty {
            return Lowered(shape: shapes[0], isNullable: isNullable)
        }
        return Lowered(shape: .choice(name: names.claim(name), description: nil, choices: shapes), isNullable: isNullable)
    }

    func hintText(_ hint: NameHint) -> String {
        switch hint {
        case .suggested(let text), .reserved(let text): text
        }
    }

    // MARK: anyOf, oneOf

    mutating func lowerChoice(_ branches: [JSONValue], at pointer: JSONPointer, name: NameHint) -> Lowered {
        var isNullable = false
        var kept: [(Int, JSONValue)] = []
        for (index, branch) in branches.enumerated() {
            if branch["type"] == "null" || branch["const"] == .null {
                isNullable = true
            } else {
                kept.append((index, branch))
            }
        }
        if kept.isEmpty {
            if branches.isEmpty {
                report(.error, at: pointer, "an empty list of choices accepts nothing; a string is used")
            } else {
                report(.warning, at: pointer, "a value that can only be null cannot be generated; the property is left out instead")
            }
            return Lowered(shape: .string(constant: nil, pattern: nil), isNullable: true)
        }
        if kept.count == 1 {
            var lowered = lower(kept[0].1, at: pointer.appending(kept[0].0), name: name)
            lowered.isNullable = lowered.isNullable || isNullable
            return lowered
        }
        let choiceName = names.claim(name)
        var choices: [ArgumentShape] = []
        for (index, branch) in kept {
            let lowered = lower(branch, at: pointer.appending(index), name: .suggested("\(choiceName)_\(index + 1)"))
            choices.append(lowered.describedNode)
            isNullable = isNullable || lowered.isNullable
        }
        return Lowered(shape: .choice(name: choiceName, description: nil, choices: choices), isNullable: isNullable)
    }
}
