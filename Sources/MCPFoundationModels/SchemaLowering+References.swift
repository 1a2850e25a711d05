internal import MCPCore

#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

// Lowering local `$ref`s: named dependencies, inlined scalars and cycles.

extension SchemaLowering {
    // MARK: $ref

    mutating func lowerReference(_ reference: String, at pointer: JSONPointer, name: NameHint) -> Lowered {
        guard let (target, schema) = resolve(reference, at: pointer) else {
            return Lowered(shape: .string(constant: nil, pattern: nil))
        }
        switch references[target] {
        case .inProgress(let reserved, _)?:
            references[target] = .inProgress(name: reserved, isRecursive: true)
            return Lowered(shape: .reference(reserved))
        case .done(let lowered)?:
            return lowered
        case nil:
            break
        }
        let base = target.tokens.last.map { $0.isEmpty ? hintText(name) : $0 } ?? hintText(name)
        let reserved = names.claim(.suggested(base))
        references[target] = .inProgress(name: reserved, isRecursive: false)
        let lowered = lower(schema, at: target, name: .reserved(reserved))
        var isRecursive = false
        if case .inProgress(_, let recursive)? = references[target] { isRecursive = recursive }

        let result: Lowered
        if lowered.shape.name == reserved {
            definitions.append((reserved, lowered.describedNode))
            result = Lowered(shape: .reference(reserved), isNullable: lowered.isNullable)
        } else if isRecursive || lowered.shape.containsNamedNode {
            // A named wrapper, so that every use refers to one definition.
            definitions.append((reserved, .choice(name: reserved, description: lowered.description, choices: [lowered.shape])))
            result = Lowered(shape: .reference(reserved), isNullable: lowered.isNullable)
        } else {
            names.release(reserved)
            result = lowered
        }
        references[target] = .done(result)
        return result
    }

    /// The location and schema a local reference points at, or `nil` (reported) when it
    /// is remote or dangling.
    mutating func resolve(_ reference: String, at pointer: JSONPointer) -> (JSONPointer, JSONValue)? {
        guard reference.hasPrefix("#") else {
            report(.error, at: pointer, "the remote reference \"\(reference)\" is not followed; a string is used")
            return nil
        }
        let fragment = String(reference.dropFirst())
        let decoded = fragment.percentDecoded ?? fragment
        if decoded.isEmpty {
            return (JSONPointer(), document)
        }
        if let target = try? JSONPointer(parsing: decoded), let schema = document[pointer: target] {
            return (target, schema)
        }
        if let (target, schema) = anchor(decoded) {
            return (target, schema)
        }
        report(.error, at: pointer, "the reference \"\(reference)\" points at nothing in this schema; a string is used")
        return nil
    }

    /// A schema with `"$anchor": name` (searched breadth-first; anchors are rare in tool schemas).
    func anchor(_ name: String) -> (JSONPointer, JSONValue)? {
        var queue: [(JSONPointer, JSONValue)] = [(JSONPointer(), document)]
        var index = 0
        while index < queue.count, index < 10_000 {
            let (pointer, value) = queue[index]
            index += 1
            switch value {
            case .object(let object):
                if object["$anchor"]?.stringValue == name { return (pointer, value) }
                for (key, child) in object { queue.append((pointer.appending(key), child)) }
            case .array(let elements):
                for (position, child) in elements.enumerated() { queue.append((pointer.appending(position), child)) }
            default:
                break
            }
        }
        return nil
    }
}
