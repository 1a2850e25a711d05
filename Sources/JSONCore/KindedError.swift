/// An error that is one of a fixed set of kinds, with a sentence saying what happened.
///
/// The package's errors (`MCPClientError`, `TransportError`, `ToolContextError`,
/// `ConfinementError`, `HTTPTransportError`, `ChatCompletionsError`, `SandboxProfileError`,
/// `ToolArgumentsSchemaError`) share this shape. Each is its own type (a transport error is
/// not a client error) and names its kinds as static members; this protocol gives them all
/// the same behaviour:
///
/// - errors are equal, and hash alike, when they are of the same ``kind``, whatever their
///   ``detail`` (and whatever else they carry), so `error == .timedOut` asks "is it a
///   time-out?";
/// - a static member matches in a `catch` clause: `catch MCPClientError.timedOut`;
/// - the ``description`` is the ``detail``, unless the type says more.
///
/// ```swift
/// do {
///     _ = try await client.callTool(name: "search", arguments: [:])
/// } catch MCPClientError.timedOut {
///     // any time-out, whatever its detail
/// } catch let error as MCPClientError {
///     print(error.kind.name, error.detail)
/// }
/// ```
///
/// Kinds are an open set: a new kind is a new static member, never a new enum case, so adding
/// one breaks no app's exhaustive `switch`.
///
/// It lives in JSONCore, the package's lowest public module, because every module with a
/// public error already depends on it: ChatCompletions (a model client with no MCP in it)
/// would otherwise need MCPCore for this alone.
public protocol KindedError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which kind of error this is: the same for every error of a kind, whatever its detail.
    var kind: ErrorKind { get }
    /// What happened, in a sentence.
    var detail: String { get }
}

/// The name of one kind of ``KindedError``, such as `"timedOut"`.
///
/// Two kinds are the same when their names are; an error type gives each of its kinds a name
/// of its own (the name of the static member that stands for it).
public struct ErrorKind: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The kind's name, such as `"timedOut"`: stable, for logs and metrics.
    public let name: String

    /// A kind named `name`.
    public init(_ name: String) {
        self.name = name
    }

    public init(stringLiteral name: String) {
        self.name = name
    }

    public var description: String { name }
}

extension KindedError {
    /// Errors are equal when they are of the same kind, whatever their detail.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.kind == rhs.kind
    }

    /// Hashes the kind alone, as `==` compares it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
    }

    /// Matches an error of this type and of the same kind, for `catch` clauses.
    public static func ~= (pattern: Self, error: any Error) -> Bool {
        (error as? Self)?.kind == pattern.kind
    }

    /// The detail.
    public var description: String { detail }
}

/// A ``KindedError`` the package makes with a detail of its own: `MCPClientError.timedOut("…")`
/// is the kind `timedOut` with that detail.
///
/// Package-only, so that apps match errors but only the package makes them.
package protocol DetailedKindedError: KindedError {
    /// An error of `kind`, saying `detail`.
    init(_ kind: ErrorKind, _ detail: String)
}

extension DetailedKindedError {
    /// An error of this one's kind that says `detail`.
    package func callAsFunction(_ detail: String) -> Self {
        Self(kind, detail)
    }
}
