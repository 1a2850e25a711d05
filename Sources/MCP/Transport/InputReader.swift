internal import MCPCore
internal import MCPPlatform

/// The input side of the reading thread: the descriptor, a line framer, and the parse of
/// each line into an ``InboundMessage``.
///
/// Dropping it releases the descriptor (closing it when the transport owns it).
final class InputReader {
    let descriptor: Int32
    let owner: DescriptorOwner?
    // Unchecked for exclusivity: only the reading thread touches them, one read at a time, and
    // the run-time check took a thread-local lookup and two runtime calls on every line.
    @exclusivity(unchecked) private var framer: LineFramer
    @exclusivity(unchecked) private var batch: [InboundFrame] = []
    private let chunk: UnsafeMutableRawBufferPointer
    private let reader = JSONReader()
    /// Per-request reply limits, looked up by a growing frame's id.
    private let limits: ResultLimits?

    init(descriptor: Int32, owner: DescriptorOwner?, maximumFrameLength: Int, limits: ResultLimits? = nil) {
        self.descriptor = descriptor
        self.owner = owner
        self.limits = limits
        framer = LineFramer(maximumFrameLength: maximumFrameLength)
        chunk = .allocate(byteCount: 64 * 1024, alignment: 1)
    }

    deinit {
        chunk.deallocate()
        owner?.release()
    }

    /// Reads what is available (one `read`, which does not block: `poll` said so) and hands
    /// the complete messages to `inbound`. Returns `false` when reading is over.
    ///
    /// A read never asks for more than the framer can take without passing its limit, so a
    /// line that never ends is reported (with the id from its first bytes) as soon as it is
    /// longer than the limit, and the reader never holds more of it.
    func readOnce(into inbound: InboundBuffer) -> Bool {
        let count: Int
        do {
            let size = min(chunk.count, framer.appendLimit)
            count = try POSIX.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: chunk[0..<size]))
        } catch {
            inbound.finish(throwing: TransportError.ioFailure("reading from descriptor \(descriptor) failed: \(error)"))
            return false
        }
        if count == 0 {
            if let last = framer.finish() { batch.append(decode(last)) }
            if !batch.isEmpty, !inbound.push(&batch) { return false }
            inbound.finish(throwing: nil)
            return false
        }
        framer.append(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
        drainFramer()
        if !batch.isEmpty { return inbound.push(&batch) }
        return true
    }

    /// Takes every complete frame from the framer. When per-request limits are registered,
    /// the line still being read gets its request's limit as soon as its first bytes name
    /// the request, so that it is cut the moment it passes that limit.
    private func drainFramer() {
        while true {
            while let frame = framer.next() {
                batch.append(decode(frame))
            }
            guard let limits, !framer.isLineLimitDecided, let prefix = framer.pendingLinePrefix, !limits.isEmpty else {
                return
            }
            if let id = FrameIDScanner.id(in: prefix) {
                framer.limitCurrentLine(to: limits.limit(for: id))
                continue
            }
            if prefix.count >= FrameIDScanner.prefixLength { framer.limitCurrentLine(to: nil) }
            return
        }
    }

    private func decode(_ frame: LineFramer.Frame) -> InboundFrame {
        switch frame {
        case .line(let bytes):
            if let limits, !limits.isEmpty, let id = FrameIDScanner.id(in: bytes), let limit = limits.limit(for: id),
                bytes.count > limit
            {
                // A whole reply over its call's limit (read in one go, or its id came late).
                limits.noteExceeded(id, limit: limit)
                return InboundFrame(message: .invalid(Self.overCallLimit(id: id, length: bytes.count, limit: limit)), byteCount: 0)
            }
            return InboundFrame(message: Self.decode(bytes, with: reader), byteCount: bytes.count)
        case .oversized(let prefix, let length):
            let limit = framer.reportedLimit
            if limit < framer.maximumFrameLength, let limits, let id = FrameIDScanner.id(in: prefix) {
                limits.noteExceeded(id, limit: limit)
                return InboundFrame(message: .invalid(Self.overCallLimit(id: id, length: length, limit: limit)), byteCount: prefix.count)
            }
            let message = InboundMessage.invalid(
                Self.oversized(prefix: prefix, length: length, limit: framer.maximumFrameLength, reader: reader))
            return InboundFrame(message: message, byteCount: prefix.count)
        }
    }

    /// The report of a reply longer than its call's own limit.
    static func overCallLimit(id: RequestID, length: Int?, limit: Int) -> InvalidMessage {
        let detail =
            if let length {
                "message of \(length) bytes is longer than the limit of \(limit) bytes for this call"
            } else {
                "message is longer than the limit of \(limit) bytes for this call"
            }
        return InvalidMessage(id: nil, error: .invalidRequest(detail), apparentID: id)
    }

    /// One line as a message, or as an invalid message carrying the id when it can be found.
    static func decode(_ bytes: ArraySlice<UInt8>, with reader: JSONReader) -> InboundMessage {
        let json: JSONValue
        do {
            json = try reader.read(bytes)
        } catch {
            // Not JSON (or nested too deeply): answered with `id: null` whatever the text
            // holds; the id its first bytes seem to carry only helps a client fail that call.
            return .invalid(InvalidMessage(id: nil, error: .parseError(error.description), apparentID: FrameIDScanner.id(in: bytes)))
        }
        do {
            return .message(try JSONRPCMessage(json))
        } catch {
            return .invalid(error)
        }
    }

    /// The report of a line longer than `limit`: its length when known, answered with the id
    /// only when its first bytes are a well-formed prefix of a request
    /// (``FrameIDScanner/requestID(inPrefix:reader:)``), and the id they seem to carry as
    /// ``InvalidMessage/apparentID`` either way.
    static func oversized(prefix: ArraySlice<UInt8>, length: Int?, limit: Int, reader: JSONReader) -> InvalidMessage {
        let detail =
            if let length {
                "message of \(length) bytes is longer than the limit of \(limit) bytes"
            } else {
                "message is longer than the limit of \(limit) bytes"
            }
        return InvalidMessage(
            id: FrameIDScanner.requestID(inPrefix: prefix, reader: reader), error: .invalidRequest(detail),
            apparentID: FrameIDScanner.id(in: prefix))
    }
}
