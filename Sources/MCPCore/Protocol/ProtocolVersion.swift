/// An MCP protocol version, such as `2025-11-25`.
///
/// Versions are dates, but they are compared by their position in ``known``, never as
/// strings: an unknown version is not "newer" than a known one. Versions up to
/// ``v2025_11_25`` use the `initialize` handshake (the *legacy* era); ``v2026_07_28``
/// carries the version in every request's `params._meta` (the *modern* era).
public struct ProtocolVersion: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }

    /// The first published version: tools, handshake, progress, cancellation.
    public static let v2024_11_05: ProtocolVersion = "2024-11-05"
    /// Adds tool annotations, audio content and JSON-RPC batching.
    public static let v2025_03_26: ProtocolVersion = "2025-03-26"
    /// Removes batching; adds structured tool output and resource links.
    public static let v2025_06_18: ProtocolVersion = "2025-06-18"
    /// Adds icons; input validation failures become tool errors; JSON Schema 2020-12.
    public static let v2025_11_25: ProtocolVersion = "2025-11-25"
    /// The stateless era: no handshake, a per-request envelope, `server/discover`.
    public static let v2026_07_28: ProtocolVersion = "2026-07-28"

    /// Every version this library knows, oldest first.
    public static let known: [ProtocolVersion] = [v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25, v2026_07_28]
    /// The versions negotiated with the `initialize` handshake.
    public static let handshakeVersions: [ProtocolVersion] = [v2024_11_05, v2025_03_26, v2025_06_18, v2025_11_25]
    /// The versions that carry a per-request envelope instead of a handshake.
    public static let modernVersions: [ProtocolVersion] = [v2026_07_28]
    /// The newest handshake version, offered when a client asks for one we do not know.
    public static let latestHandshake: ProtocolVersion = v2025_11_25
    /// The newest version.
    public static let latest: ProtocolVersion = v2026_07_28

    /// Whether this version is negotiated with `initialize`.
    public var usesHandshake: Bool { Self.handshakeVersions.contains(self) }
    /// Whether this version carries the per-request envelope.
    public var isModern: Bool { Self.modernVersions.contains(self) }
    /// Whether JSON-RPC batches are allowed (2025-03-26 only).
    public var allowsBatches: Bool { self == .v2025_03_26 }
}
