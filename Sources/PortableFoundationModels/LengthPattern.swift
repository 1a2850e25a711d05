// PortableFoundationModels: compiled everywhere (unlike the rest of the module), because the MCP
// bridge and ChatCompletions share it over Apple's FoundationModels too.

/// A string length as a generation guide: the pattern `[\s\S]{m,n}`, any characters, from
/// `minimum` to `maximum` of them; the one contract between the MCP bridge, which writes it, and
/// ChatCompletions, which reads it back.
///
/// Apple's generation guides have no length, only a pattern, and a pattern constrains the whole
/// string; JSON Schema's `minLength` and `maxLength` count Unicode code points, as this pattern
/// does when matched on Unicode scalars (the way the session validates guides). The bridge lowers
/// MCP's `minLength`/`maxLength` to ``pattern``; a backend whose server takes JSON Schema reads a
/// pattern of exactly this form back with ``init(pattern:)`` as `minLength` and `maxLength`
/// (ChatCompletions does), which servers enforce more reliably than a regex.
///
/// Package-internal: it is not Apple's API, and a guide says it only through its pattern.
package struct LengthPattern: Hashable, Sendable {
    /// The fewest characters.
    package var minimum: Int
    /// The most characters; `nil` for no limit.
    package var maximum: Int?

    /// A length from `minimum` to `maximum` (no limit when `nil`) characters.
    package init(minimum: Int, maximum: Int?) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The length a guide's pattern says: `[\s\S]{m,n}` or `[\s\S]{m,}` (ASCII digits, `m` ≤ `n`);
    /// `nil` for any other pattern.
    package init?(pattern: String) {
        let prefix = #"[\s\S]{"#
        guard pattern.hasPrefix(prefix), pattern.hasSuffix("}") else { return nil }
        let bounds = pattern.dropFirst(prefix.count).dropLast().split(separator: ",", omittingEmptySubsequences: false)
        func number(_ digits: Substring) -> Int? {
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(digits)
        }
        guard bounds.count == 2, let minimum = number(bounds[0]) else { return nil }
        if bounds[1].isEmpty {
            self.init(minimum: minimum, maximum: nil)
            return
        }
        guard let maximum = number(bounds[1]), maximum >= minimum else { return nil }
        self.init(minimum: minimum, maximum: maximum)
    }

    /// The guide's pattern: `[\s\S]{m,n}`, or `[\s\S]{m,}` without a maximum.
    package var pattern: String {
        #"[\s\S]{"# + String(minimum) + "," + (maximum.map(String.init) ?? "") + "}"
    }
}
