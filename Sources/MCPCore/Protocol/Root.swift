/// A directory (or file) the client lets servers work in: an MCP root (`roots/list`).
///
/// ```swift
/// let documents = Root(path: "/Users/me/Documents", name: "Documents")
/// documents.uri   // "file:///Users/me/Documents"
/// ```
///
/// MCP requires root URIs to be `file://` URIs. Roots tell a server where it may work; they
/// are not enforced by the protocol: a server's tools stay inside them only when they check
/// (see `RootConfinement` in the `MCP` module).
public struct Root: Hashable, Sendable {
    /// The root's `file://` URI.
    public var uri: String
    /// A name for people to read.
    public var name: String?
    /// Other members (`_meta`), kept as they came.
    public var otherFields: JSONObject

    /// A root from its URI.
    public init(uri: String, name: String? = nil) {
        self.uri = uri
        self.name = name
        self.otherFields = JSONObject()
    }

    /// A root for an absolute file-system path, with its URI percent-encoded as RFC 8089 asks.
    public init(path: String, name: String? = nil) {
        self.init(uri: Self.fileURI(path: path), name: name)
    }

    /// Reads a root object; `nil` when it has no string `uri`.
    public init?(json: JSONValue) {
        guard case .object(let object) = json, case .string(let uri)? = object["uri"] else { return nil }
        self.uri = uri
        self.name = object["name"]?.stringValue
        var others = object
        others["uri"] = nil
        others["name"] = nil
        self.otherFields = others
    }

    /// The root as MCP writes it.
    public var json: JSONValue {
        var object = otherFields
        object["uri"] = .string(uri)
        if let name { object["name"] = .string(name) }
        return .object(object)
    }

    /// The absolute path of a `file://` URI with an empty or `localhost` host, percent-decoded;
    /// `nil` for any other URI, or one whose decoded path holds a NUL byte or is not UTF-8.
    public var path: String? {
        let prefix = "file://"
        guard uri.utf8.count > prefix.utf8.count, uri.lowercased().hasPrefix(prefix) else { return nil }
        var rest = Substring(uri.dropFirst(prefix.count))
        if rest.lowercased().hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
        guard rest.hasPrefix("/"), !rest.contains("?"), !rest.contains("#") else { return nil }
        var bytes: [UInt8] = []
        var utf8 = Array(rest.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let high = Self.hexValue(utf8[utf8.startIndex]),
                    let low = Self.hexValue(utf8[utf8.startIndex + 1])
                else { return nil }
                utf8 = utf8.dropFirst(2)
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        let decoded = String(decoding: bytes, as: UTF8.self)
        // Invalid UTF-8 would have been repaired (with U+FFFD): refuse it instead.
        guard !bytes.contains(0), decoded.utf8.elementsEqual(bytes) else { return nil }
        return decoded
    }

    /// The `file://` URI of an absolute path: unreserved characters and `/` as they are,
    /// everything else percent-encoded.
    static func fileURI(path: String) -> String {
        var uri = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                uri.unicodeScalars.append("%")
                uri.unicodeScalars.append(digits[Int(byte >> 4)])
                uri.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return uri
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// The result of `roots/list`: the client's roots.
public struct ListRootsResult: Hashable, Sendable {
    /// The roots, in the client's order.
    public var roots: [Root]

    public init(roots: [Root]) {
        self.roots = roots
    }

    /// Reads a `roots/list` result; entries that are not roots are left out.
    ///
    /// - Throws: ``PayloadError`` when `roots` is missing or not an array.
    public init(json: JSONValue) throws(PayloadError) {
        guard case .array(let entries)? = json["roots"] else {
            throw .expected("an array", at: "roots", found: json["roots"])
        }
        roots = entries.compactMap(Root.init(json:))
    }

    public var json: JSONValue {
        ["roots": .array(roots.map(\.json))]
    }
}
