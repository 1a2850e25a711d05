internal import MCPPlatform

/// Splits a byte stream into lines: the stdio framing of MCP (one JSON-RPC message per line).
///
/// A value-type state machine, with no I/O: `append(_:)` bytes as
/// they arrive, then call `next()` until it returns `nil`; at end of input call
/// `finish()` for a last line that had no newline.
///
/// - A line ends at `\n`; one `\r` before it is removed (`\r\n` is tolerated).
/// - Blank and whitespace-only lines (space, tab, CR) are skipped.
/// - A line longer than `maximumFrameLength` bytes (not counting its line ending) is
///   reported once as `Frame.oversized`, with its first bytes (at most
///   ``FrameIDScanner/prefixLength``, for the id) and, when its newline has been seen, its
///   length. It is reported as soon as it passes the limit, not when its newline comes;
///   the rest of it is thrown away up to the next newline, and the lines after it are read
///   normally. A reader that appends no more than ``appendLimit`` bytes at a time keeps the
///   framer from holding more than the limit plus a line ending.
/// - Lines split across chunks and many lines in one chunk cost linear time: the framer
///   keeps a read offset and the position up to which it has searched for a newline, and
///   compacts its buffer only when the consumed part is at least half of it.
/// - The line being read can be given a tighter limit of its own
///   (``limitCurrentLine(to:)``), once its first bytes say what it is (a reply to a call
///   with a result limit); it is then reported as oversized as soon as it passes that limit.
struct LineFramer: Sendable {
    /// One result of framing.
    enum Frame: Hashable, Sendable {
        /// The bytes of one line, without its line ending. Valid until the next mutation.
        case line(ArraySlice<UInt8>)
        /// A line longer than the limit was read (and is being) discarded: its first bytes,
        /// and its length when its end has been seen (`nil` while it still goes on).
        /// The prefix is valid until the next mutation.
        case oversized(prefix: ArraySlice<UInt8>, length: Int?)
    }

    /// The default limit on a line's length: 16 MiB.
    static let defaultMaximumFrameLength = 16 * 1024 * 1024

    /// The longest line accepted, in bytes, not counting `\r\n` or `\n`.
    let maximumFrameLength: Int

    private var buffer: [UInt8] = []
    /// Where the unconsumed bytes start.
    private var start = 0
    /// The index up to which the buffer is known to hold no newline (at least `start`).
    private var scanned = 0
    /// Throwing away an oversized line until its newline.
    private var discarding = false
    /// A tighter limit for the line being read, when one was set.
    private var lineLimit: Int?
    /// Whether the line being read has been given its limit (or found to need none).
    private(set) var isLineLimitDecided = false
    /// The limit that applied to the last oversized line reported.
    private(set) var reportedLimit: Int

    private static let newline: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D

    /// Creates a framer.
    ///
    /// - Parameter maximumFrameLength: The longest line accepted, in bytes; at least 1 (the
    ///   transports check this where it is given to them, so it is an invariant here).
    init(maximumFrameLength: Int = defaultMaximumFrameLength) {
        precondition(maximumFrameLength > 0, "maximumFrameLength must be positive")
        self.maximumFrameLength = maximumFrameLength
        self.reportedLimit = maximumFrameLength
    }

    /// The limit of the line being read: the tighter of its own and the framer's.
    private var currentLimit: Int {
        lineLimit.map { min($0, maximumFrameLength) } ?? maximumFrameLength
    }

    /// The first bytes (at most ``FrameIDScanner/prefixLength``) of the line being read,
    /// or `nil` when there is none or it is being thrown away. Valid until the next mutation.
    var pendingLinePrefix: ArraySlice<UInt8>? {
        guard !discarding, buffer.count > start else { return nil }
        return buffer[start..<min(buffer.count, start + FrameIDScanner.prefixLength)]
    }

    /// Gives the line being read a limit of its own (`nil`: none beyond the framer's); call
    /// ``next()`` again afterwards, since the line may already be longer than the limit.
    /// The limit ends with the line.
    mutating func limitCurrentLine(to limit: Int?) {
        lineLimit = limit.map { max(1, $0) }
        isLineLimitDecided = true
    }

    /// Starts the next line with no limit of its own.
    private mutating func startLine() {
        lineLimit = nil
        isLineLimitDecided = false
    }

    /// The number of bytes held for a line not yet complete.
    var bufferedByteCount: Int { buffer.count - start }

    /// The most bytes worth appending next (after `next()` has returned `nil`): enough to
    /// complete a line of the maximum length and its `\r\n`, so that a line that never ends
    /// is reported as soon as it passes the limit and never held beyond it. Unbounded
    /// while an oversized line is being thrown away.
    var appendLimit: Int {
        discarding ? Int.max : max(1, currentLimit + 2 - bufferedByteCount)
    }

    /// Adds bytes read from the stream.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        var bytes = bytes
        if discarding {
            guard let newlineIndex = POSIX.firstIndex(of: Self.newline, in: bytes) else { return }
            discarding = false
            bytes = UnsafeRawBufferPointer(rebasing: bytes[(newlineIndex + 1)...])
        }
        guard !bytes.isEmpty else { return }
        compact()
        let needed = buffer.count + bytes.count
        if needed > buffer.capacity, needed > Self.directGrowthThreshold {
            // Past 1 MiB, grow once to the most the current line may take (pages not yet
            // written cost no memory) instead of doubling: each doubling copies the line, and
            // the last bytes of a line at the limit would double the buffer to twice the limit,
            // holding both copies at once (~48 MiB at the peak for a 16 MiB limit, not ~17).
            buffer.reserveCapacity(max(needed, start + currentLimit + 2))
        }
        buffer.append(contentsOf: bytes)
    }

    /// The buffer size past which it grows straight to the line's limit.
    private static let directGrowthThreshold = 1 << 20

    /// Adds bytes read from the stream.
    mutating func append(_ bytes: some Collection<UInt8>) {
        let copied: Void? = bytes.withContiguousStorageIfAvailable { storage in
            append(UnsafeRawBufferPointer(storage))
        }
        if copied == nil {
            Array(bytes).withUnsafeBytes { append($0) }
        }
    }

    /// The next complete line, an oversized-line report, or `nil` when more bytes are needed.
    mutating func next() -> Frame? {
        while true {
            let end = buffer.count
            let newlineIndex: Int? =
                scanned < end
                ? buffer.withUnsafeBytes { raw in
                    POSIX.firstIndex(of: Self.newline, in: UnsafeRawBufferPointer(rebasing: raw[scanned..<end]))
                        .map { $0 + scanned }
                }
                : nil
            guard let newlineIndex else {
                scanned = end
                var pending = end - start
                if pending > 0, buffer[end - 1] == Self.carriageReturn { pending -= 1 }
                let limit = currentLimit
                guard pending > limit else { return nil }
                // Too long and still going: report it once, with its first bytes, then drop
                // bytes until its newline.
                discarding = true
                reportedLimit = limit
                startLine()
                let kept = min(FrameIDScanner.prefixLength, pending)
                buffer = Array(buffer[start..<(start + kept)])
                start = kept
                scanned = kept
                return .oversized(prefix: buffer[0..<kept], length: nil)
            }
            let lineStart = start
            var lineEnd = newlineIndex
            start = newlineIndex + 1
            scanned = start
            if lineEnd > lineStart, buffer[lineEnd - 1] == Self.carriageReturn { lineEnd -= 1 }
            let limit = currentLimit
            startLine()
            if lineEnd - lineStart > limit {
                reportedLimit = limit
                return Self.oversized(buffer[lineStart..<lineEnd])
            }
            if Self.isBlank(buffer[lineStart..<lineEnd]) { continue }
            return .line(buffer[lineStart..<lineEnd])
        }
    }

    /// At end of input: the last line when it had no newline, or `nil`. Resets the framer.
    mutating func finish() -> Frame? {
        let limit = currentLimit
        defer {
            releaseBuffer()
            discarding = false
            startLine()
        }
        if discarding { return nil }
        var end = buffer.count
        if end > start, buffer[end - 1] == Self.carriageReturn { end -= 1 }
        if end - start > limit {
            reportedLimit = limit
            return Self.oversized(buffer[start..<end])
        }
        let rest = buffer[start..<end]
        return Self.isBlank(rest) ? nil : .line(rest)
    }

    private static func oversized(_ line: ArraySlice<UInt8>) -> Frame {
        .oversized(prefix: line.prefix(FrameIDScanner.prefixLength), length: line.count)
    }

    private static func isBlank(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Drops the consumed prefix when that is cheap relative to what it frees.
    private mutating func compact() {
        guard start > 0 else { return }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
        } else if start * 2 >= buffer.count {
            buffer.removeSubrange(0..<start)
        } else {
            return
        }
        scanned -= start
        start = 0
    }

    private mutating func releaseBuffer() {
        buffer = []
        start = 0
        scanned = 0
    }
}
