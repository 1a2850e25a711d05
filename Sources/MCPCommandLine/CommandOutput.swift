internal import MCPPlatform

/// Where a command writes text: standard output, standard error, or a buffer in a test.
///
/// Conformers must accept writes from any task; each `write` appears whole.
package protocol CommandOutput: Sendable {
    /// Writes `text` as it is (add the newline yourself).
    func write(_ text: String)

    /// Whether a person reads it as it is written (a terminal): `chat` then shows answers as
    /// the model generates them. `false` unless a conformer says otherwise.
    var isInteractive: Bool { get }

    /// The terminal's width in columns, when it is a terminal that says (`chat` then rewrites
    /// an answer in place when the model's answer is replaced); `nil` otherwise.
    var columns: Int? { get }
}

extension CommandOutput {
    package var isInteractive: Bool { false }
    package var columns: Int? { nil }
}

/// One of this process's standard streams.
package struct StandardStream: CommandOutput {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The process's standard output (descriptor 1).
    package static var output: StandardStream { StandardStream(descriptor: 1) }
    /// The process's standard error (descriptor 2).
    package static var error: StandardStream { StandardStream(descriptor: 2) }

    /// Whether the stream is a terminal.
    package var isInteractive: Bool { POSIX.isTerminal(descriptor) }

    /// The terminal's width, asked each time (a window can be resized).
    package var columns: Int? { POSIX.terminalColumns(descriptor) }

    /// Writes `text` as UTF-8; a closed stream (for example a pipe whose reader left) is ignored.
    package func write(_ text: String) {
        try? POSIX.writeAll(descriptor, Array(text.utf8))
    }
}

/// A buffer that collects what a command writes, for tests and for embedding the CLI.
package final class CapturedOutput: CommandOutput, Sendable {
    private let buffer = LockedValue("")

    /// Whether it stands for a terminal (a test of what people see there).
    package let isInteractive: Bool
    /// The width of the terminal it stands for.
    package let columns: Int?

    /// Creates an empty buffer, standing for a terminal `columns` wide when `isInteractive`.
    package init(isInteractive: Bool = false, columns: Int? = nil) {
        self.isInteractive = isInteractive
        self.columns = isInteractive ? columns : nil
    }

    /// Appends `text` to the buffer.
    package func write(_ text: String) {
        buffer.withLock { $0 += text }
    }

    /// Everything written so far.
    package var text: String {
        buffer.withLock { $0 }
    }
}

/// Another output, counting the writes made to it: the chat tells from the count whether
/// anything was written to the terminal between two pieces of a streamed answer.
package final class CountingOutput: CommandOutput, Sendable {
    private let base: any CommandOutput
    private let count = LockedValue(0)

    package init(_ base: any CommandOutput) {
        self.base = base
    }

    package func write(_ text: String) {
        count.withLock { $0 += 1 }
        base.write(text)
    }

    package var isInteractive: Bool { base.isInteractive }
    package var columns: Int? { base.columns }

    /// The writes made so far.
    package var writes: Int { count.withLock { $0 } }
}
