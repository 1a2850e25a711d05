/// Unique type names within one tool's schema.
struct NameRegistry {
    private var used: Set<String> = []

    /// A unique name: the hint made into an identifier, with `_2`, `_3`, … on collision.
    mutating func claim(_ hint: SchemaLowering.NameHint) -> String {
        switch hint {
        case .reserved(let name):
            used.insert(name)
            return name
        case .suggested(let text):
            let base = Self.identifier(text)
            var candidate = base
            var suffix = 2
            while used.contains(candidate) {
                candidate = "\(base)_\(suffix)"
                suffix += 1
            }
            used.insert(candidate)
            return candidate
        }
    }

    mutating func release(_ name: String) {
        used.remove(name)
    }

    /// `text` as an identifier (see ``ToolNameMap``'s rule).
    static func identifier(_ text: String) -> String {
        ToolNameMap.sanitized(text)
    }
}
