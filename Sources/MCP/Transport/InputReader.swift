internal import MCPCore
internal import MCPPlatform

/// The input side of the reading thread: the descriptor, a line framer, and the parse of
/// each line into an ``InboundMessage``.
///
/// Dropping it releases the descriptor (closing it when the transport owns it).
final class InputReader {
    let descriptor: Int32
    let owner: DescriptorOwner?
    private var framer: LineFramer
    private var batch: [InboundFrame] = []
    private let chunk: UnsafeMutableRawBufferPointer
    private let reader = JSONReader()

    init(descriptor: Int32, owner: DescriptorOwner?, maximumFrameLength: Int) {
        self.descriptor = descriptor
        self.owner = owner
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
        while let frame = framer.next() {
            batch.append(decode(frame))
        }
        if !batch.isEmpty { return inbound.push(&batch) }
        return true
    }

    private func decode(_ frame: LineFramer.Frame) -> InboundFrame {
        switch frame {
        case .line(let bytes):
            return InboundFrame(message: Self.decode(bytes, with: reader), byteCount: bytes.count)
        case .oversized(let prefix, let length):
            let message = InboundMessage.invalid(
                Self.oversized(prefix: prefix, length: length, limit: framer.maximumFrameLength))
            return InboundFrame(message: message, byteCount: prefix.count)
        }
    }

    /// One line as a message, or as an invalid message carrying the id when it can be found.
    static func decode(_ bytes: ArraySlice<UInt8>, with reader: JSONReader) -> InboundMessage {
        let json: JSONValue
        do {
            json = try reader.read(bytes)
        } catch {
            // Not JSON (or nested too deeply): what was wrong, and the id if its first bytes hold one.
            return .invalid(InvalidMessage(id: FrameIDScanner.id(in: bytes), error: .parseError(error.description)))
        }
        do {
            return .message(try JSONRPCMessage(json))
        } catch {
            return .invalid(error)
        }
    }

    /// The report of a line longer than `limit`: its length when known, and the id if its
    /// first bytes hold one.
    static func oversized(prefix: ArraySlice<UInt8>, length: Int?, limit: Int) -> InvalidMessage {
        let detail =
            if let length {
                "message of \(length) bytes is longer than the limit of \(limit) bytes"
            } else {
                "message is longer than the limit of \(limit) bytes"
            }
        return InvalidMessage(id: FrameIDScanner.id(in: prefix), error: .invalidRequest(detail))
    }
}
