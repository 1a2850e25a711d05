/// The status `ondevice-mcp` exits with.
///
/// The rule, also printed by `ondevice-mcp --help`:
///
/// | code | meaning |
/// |---|---|
/// | 0 | success |
/// | 1 | the tool ran and reported an error (`isError: true`) |
/// | 2 | usage error: unknown command or option, missing or malformed argument, `JSON-ARGUMENTS` that is not a JSON object, a `schema` FILE or `--config` FILE that cannot be read or is not JSON, a `--config` FILE that is not an `mcpServers` configuration or names a remote server |
/// | 3 | failure: the server could not be started or reached, the connection broke, a request timed out, the server answered with a JSON-RPC error (an unknown tool is `-32602`), `chat` found no language model, or the model server (`--model-url`) could not be reached or has no such model |
package struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The numeric status passed to `exit`.
    package let rawValue: Int32

    /// Wraps a numeric status.
    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// 0: the command did what was asked.
    package static let success = ExitCode(rawValue: 0)
    /// 1: the tool ran and returned a result with `isError: true`.
    package static let toolError = ExitCode(rawValue: 1)
    /// 2: the command line is wrong; nothing was sent to a server.
    package static let usageError = ExitCode(rawValue: 2)
    /// 3: the server could not be started or reached, the connection failed or timed out,
    /// the server answered with a JSON-RPC error, `chat` found no language model, or the
    /// model server could not be reached or used.
    package static let failure = ExitCode(rawValue: 3)

    /// The numeric status as text.
    package var description: String { String(rawValue) }
}
