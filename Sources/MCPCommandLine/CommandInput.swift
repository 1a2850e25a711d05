internal import MCPPlatform

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a command reads: this process's standard input, or text given by a test.
struct CommandInput: Sendable {
    /// Reads everything up to the end.
    let readAll: @Sendable () throws -> Data
    /// The lines up to the end, without their line breaks; read as the chat asks for them.
    let lines: @Sendable () -> AsyncThrowingStream<String, any Error>
    /// Whether a person types it (a terminal): the chat then asks them to approve tool calls.
    var isInteractive = false

    /// Standard input (descriptor 0). Lines are read on a thread of their own, so a chat
    /// waiting for the next prompt does not hold a thread of the concurrency pool.
    static var standard: CommandInput {
        CommandInput(
            readAll: { Data(try POSIX.readToEnd(0)) },
            lines: {
                AsyncThrowingStream(String.self) { continuation in
                    do {
                        try POSIX.startThread(named: "stdin lines") {
                            while let line = readLine(strippingNewline: true) {
                                continuation.yield(line)
                            }
                            continuation.finish()
                        }
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
            },
            isInteractive: POSIX.isTerminal(0))
    }

    /// Input that holds `text` (typed by a person, for a test, when `interactive`).
    static func text(_ text: String, interactive: Bool = false) -> CommandInput {
        CommandInput(
            readAll: { Data(text.utf8) },
            lines: {
                AsyncThrowingStream { continuation in
                    var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                    // A final line break ends the last line; it does not start an empty one.
                    if lines.last?.isEmpty == true { lines.removeLast() }
                    for line in lines { continuation.yield(String(line)) }
                    continuation.finish()
                }
            },
            isInteractive: interactive)
    }
}
