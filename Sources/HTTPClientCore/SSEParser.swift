/// One event of a Server-Sent Events stream.
package struct SSEEvent: Hashable, Sendable {
    /// The event type: the `event` field, `"message"` when the event had none.
    package var type: String
    /// The `data` lines, joined with line feeds (UTF-8 bytes, not decoded).
    package var data: [UInt8]
    /// The last event ID when the event was dispatched (its own `id` field, or an earlier
    /// event's); `nil` when the stream has set none.
    package var id: String?

    /// The data as text (invalid UTF-8 replaced).
    package var text: String { String(decoding: data, as: UTF8.self) }
}

/// An incremental parser for `text/event-stream` bodies (the WHATWG HTML "event stream
/// interpretation"), fed byte chunks split anywhere.
///
/// It handles a leading byte order mark, lines ended by CR LF, LF or CR (a CR at the end of
/// one chunk and the LF at the start of the next are one line end), comments (`:` lines),
/// the `event`, `data` (several lines join with LF), `id` (ignored when it holds NUL) and
/// `retry` (digits only) fields, and ignores other fields. An event is dispatched at a blank
/// line; one whose data is empty (such as a priming event that only sets an id) is not
/// dispatched but still sets ``lastEventID``. As the spec has it, an `id` takes effect when
/// its event ends (the blank line): a stream cut in the middle of an event leaves
/// ``lastEventID`` at the last complete one, so that resuming from it gets the cut event again.
///
/// Memory is bounded: the bytes of one event — every line since the last blank line,
/// comments included — may not pass `maximumEventBytes`; the parser throws
/// ``EventTooLarge`` as soon as they do, before holding more.
package struct SSEParser: Sendable {
    /// An event longer than the parser's limit; the stream cannot be read further.
    package struct EventTooLarge: Error, Hashable, Sendable {
        package let limit: Int
    }

    /// The most bytes one event may take, counting all of its lines.
    package let maximumEventBytes: Int
    /// The last event ID (the `id` field) of the last complete event, kept across events, as
    /// the spec's reconnection needs it (`Last-Event-ID`).
    package private(set) var lastEventID: String?
    /// The `id` field seen last, which becomes ``lastEventID`` when its event ends (the
    /// spec's "last event ID buffer").
    private var pendingEventID: String?
    /// The reconnection time the server asked for with `retry`, in milliseconds.
    package private(set) var reconnectionTime: Int?
    /// How many events the parser has dispatched.
    package private(set) var dispatchedEvents = 0

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType: String?
    /// Bytes of the current event so far (every line since the last blank line).
    private var eventBytes = 0
    private var afterCR = false
    /// Whether the start of the stream (where a byte order mark may be) has passed.
    private var pastStart = false
    private var bomMatched = 0

    package init(maximumEventBytes: Int) {
        self.maximumEventBytes = maximumEventBytes
    }

    /// Whether part of an event has arrived but not its final blank line.
    /// (Comment lines alone are not part of an event.)
    package var isMidEvent: Bool { !line.isEmpty || hasData || eventType != nil || (bomMatched > 0 && !pastStart) }

    /// Feeds the next bytes of the stream; returns the events they complete, in order.
    ///
    /// - Throws: ``EventTooLarge`` when an event passes the limit (the parser is then spent).
    package mutating func feed<Bytes: Sequence>(_ bytes: Bytes) throws(EventTooLarge) -> [SSEEvent] where Bytes.Element == UInt8 {
        var events: [SSEEvent] = []
        try feed(bytes, into: &events)
        return events
    }

    /// Feeds the next bytes of the stream, appending the events they complete to `events`, in
    /// order; when it throws, `events` still has those completed before the oversized one.
    ///
    /// - Throws: ``EventTooLarge`` when an event passes the limit (the parser is then spent).
    package mutating func feed<Bytes: Sequence>(_ bytes: Bytes, into events: inout [SSEEvent]) throws(EventTooLarge)
    where Bytes.Element == UInt8 {
        for byte in bytes {
            if !pastStart {
                // UTF-8 byte order mark: EF BB BF, at most once, at the very start.
                let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
                if byte == bom[bomMatched] {
                    bomMatched += 1
                    if bomMatched == bom.count {
                        pastStart = true
                        bomMatched = 0
                    }
                    continue
                }
                pastStart = true
                // A partial mark was real data after all.
                let partial = bom.prefix(bomMatched)
                bomMatched = 0
                for earlier in partial {
                    try consume(earlier, into: &events)
                }
            }
            try consume(byte, into: &events)
        }
    }

    /// Ends the stream; returns whether it ended in the middle of an event (which is dropped,
    /// with its `id`).
    package mutating func finish() -> Bool {
        let midEvent = isMidEvent
        line.removeAll()
        resetEvent()
        pendingEventID = lastEventID
        afterCR = false
        return midEvent
    }

    private mutating func consume(_ byte: UInt8, into events: inout [SSEEvent]) throws(EventTooLarge) {
        switch byte {
        case 0x0A where afterCR:
            afterCR = false
        case 0x0A, 0x0D:
            afterCR = byte == 0x0D
            endLine(into: &events)
        default:
            afterCR = false
            eventBytes += 1
            guard eventBytes <= maximumEventBytes else { throw EventTooLarge(limit: maximumEventBytes) }
            line.append(byte)
        }
    }

    private mutating func endLine(into events: inout [SSEEvent]) {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            dispatch(into: &events)
            return
        }
        if line[0] == 0x3A { return }  // ":" comment
        // A line end counts toward the event too, so a flood of empty fields is bounded.
        eventBytes += 1
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: 0x3A) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == 0x20 { value = value.dropFirst() }
        } else {
            field = line[...]
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "data":
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "id":
            // An empty id resets the last event ID.
            if !value.contains(0) { pendingEventID = value.isEmpty ? nil : String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let time = Int(String(decoding: value, as: UTF8.self)) {
                reconnectionTime = time
            }
        default:
            break
        }
    }

    private mutating func dispatch(into events: inout [SSEEvent]) {
        defer { resetEvent() }
        // The spec's dispatch: the event's id takes effect even when it carries no data.
        lastEventID = pendingEventID
        guard hasData else { return }
        let type = eventType.flatMap { $0.isEmpty ? nil : $0 } ?? "message"
        events.append(SSEEvent(type: type, data: data, id: lastEventID))
        dispatchedEvents += 1
    }

    private mutating func resetEvent() {
        data.removeAll(keepingCapacity: true)
        hasData = false
        eventType = nil
        eventBytes = 0
    }
}
