/// Just enough of RFC 3986 to resolve `$id`, `$ref` and `$dynamicRef` values against a base URI.
struct URIReference: Hashable {
    var scheme: String?
    var authority: String?
    var path: String
    var query: String?
    var fragment: String?

    init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"),
            let first = rest.first, first.isLetter,
            rest[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." })
        {
            scheme = rest[..<colon].lowercased()
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = rest[..<end].lowercased()
            rest = rest[end...]
        }
        path = String(rest)
    }

    var text: String {
        var result = ""
        if let scheme { result += scheme + ":" }
        if let authority { result += "//" + authority }
        result += path
        if let query { result += "?" + query }
        if let fragment { result += "#" + fragment }
        return result
    }

    /// The text without its fragment.
    var withoutFragment: String {
        var copy = self
        copy.fragment = nil
        return copy.text
    }

    /// RFC 3986 §5.2.2: this reference resolved against `base`.
    func resolved(against base: URIReference) -> URIReference {
        var target = self
        if scheme != nil {
            target.path = Self.removeDotSegments(path)
            return target
        }
        target.scheme = base.scheme
        if authority != nil {
            target.path = Self.removeDotSegments(path)
            return target
        }
        target.authority = base.authority
        if path.isEmpty {
            target.path = base.path
            if query == nil { target.query = base.query }
        } else if path.hasPrefix("/") {
            target.path = Self.removeDotSegments(path)
        } else {
            let merged: String
            if base.authority != nil && base.path.isEmpty {
                merged = "/" + path
            } else if let slash = base.path.lastIndex(of: "/") {
                merged = base.path[...slash] + path
            } else {
                merged = path
            }
            target.path = Self.removeDotSegments(merged)
        }
        return target
    }

    static func removeDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (offset, segment) in segments.enumerated() {
            let isLast = offset == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if output.count > 1 || (output.count == 1 && !output[0].isEmpty) { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return output.joined(separator: "/")
    }
}

/// Decodes `%XX` escapes (as found in URI fragments holding JSON Pointers).
func percentDecoded(_ text: String) -> String {
    guard text.contains("%") else { return text }
    var bytes: [UInt8] = []
    var utf8 = Array(text.utf8)[...]
    while let byte = utf8.popFirst() {
        if byte == UInt8(ascii: "%"), utf8.count >= 2,
            let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
        {
            bytes.append(value)
            utf8 = utf8.dropFirst(2)
        } else {
            bytes.append(byte)
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}
