/// Reads one HTTP/1.1 response from the bytes of a connection, as they arrive: its head, then
/// its body (by `Content-Length`, chunked, or up to the end of the connection).
///
/// A synchronous state machine with no I/O: ``SocketExchanger`` feeds it what it reads and acts
/// on the events it returns, and tests feed it bytes split anywhere. Interim `1xx` heads are
/// skipped. What is not HTTP/1.x — a status line that is not one, a head over
/// ``maximumHeadBytes``, a chunk size that is not hexadecimal, two different `Content-Length`s —
/// is a ``Malformed`` error; the connection is then not reused.
struct HTTP1ResponseParser {
    /// What a call of ``feed(_:)`` or ``finish()`` found.
    enum Event: Equatable {
        /// The response's status and header fields (names lowercased; repeated fields joined with `", "`).
        case head(status: Int, headers: [String: String])
        /// Bytes of the body, decoded from chunks when the body is chunked.
        case body([UInt8])
        /// The response is complete; `reusable` says whether the connection may carry another.
        case end(reusable: Bool)
    }

    /// Bytes that are not an HTTP/1.x response.
    struct Malformed: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    private enum State {
        /// Collecting a head (status line and fields) up to its blank line.
        case head
        /// A body of known length: `remaining` bytes to go.
        case fixed(remaining: Int)
        /// A chunked body, at a chunk-size line.
        case chunkSize
        /// A chunked body, inside a chunk.
        case chunkData(remaining: Int)
        /// A chunked body, at the line break after a chunk's data.
        case chunkEnd
        /// A chunked body, in its trailer fields, up to the blank line.
        case trailers
        /// A body that ends with the connection.
        case untilClose
        /// The response is over; further bytes are an error.
        case done
    }

    /// The largest head (status line and fields) accepted, and the longest chunk-size or
    /// trailer line.
    let maximumHeadBytes: Int
    /// Whether the request was `HEAD`, whose response has no body whatever its fields say.
    private let headRequest: Bool
    private var state = State.head
    /// Bytes of a line or a head not complete yet.
    private var pending: [UInt8] = []
    private var reusable = true

    init(requestMethod: String, maximumHeadBytes: Int = 64 << 10) {
        headRequest = requestMethod.uppercased() == "HEAD"
        self.maximumHeadBytes = maximumHeadBytes
    }

    /// Whether the response is complete.
    var isComplete: Bool {
        if case .done = state { return true }
        return false
    }

    /// Whether the head has not arrived yet.
    var awaitsHead: Bool {
        if case .head = state { return true }
        return false
    }

    /// Takes the next bytes of the connection.
    mutating func feed(_ bytes: some Collection<UInt8>) throws(Malformed) -> [Event] {
        var events: [Event] = []
        var input = ArraySlice(bytes)
        while !input.isEmpty {
            switch state {
            case .head:
                guard let head = try takeLine(from: &input, upTo: [13, 10, 13, 10], limit: maximumHeadBytes, what: "response head") else {
                    continue
                }
                try startBody(afterHead: head, events: &events)
            case .fixed(let remaining):
                let part = input.prefix(remaining)
                input = input.dropFirst(part.count)
                events.append(.body(Array(part)))
                if remaining == part.count {
                    state = .done
                    events.append(.end(reusable: reusable))
                } else {
                    state = .fixed(remaining: remaining - part.count)
                }
            case .chunkSize:
                guard let line = try takeLine(from: &input, upTo: [13, 10], limit: maximumHeadBytes, what: "chunk size") else { continue }
                let size = try Self.chunkSize(line)
                state = size == 0 ? .trailers : .chunkData(remaining: size)
            case .chunkData(let remaining):
                let part = input.prefix(remaining)
                input = input.dropFirst(part.count)
                events.append(.body(Array(part)))
                state = remaining == part.count ? .chunkEnd : .chunkData(remaining: remaining - part.count)
            case .chunkEnd:
                guard let line = try takeLine(from: &input, upTo: [13, 10], limit: 2, what: "chunk end") else { continue }
                guard line.isEmpty else { throw Malformed(description: "a chunk is longer than its size says") }
                state = .chunkSize
            case .trailers:
                guard let line = try takeLine(from: &input, upTo: [13, 10], limit: maximumHeadBytes, what: "trailer") else { continue }
                if line.isEmpty {
                    state = .done
                    events.append(.end(reusable: reusable))
                }
            case .untilClose:
                events.append(.body(Array(input)))
                input = []
            case .done:
                throw Malformed(description: "the server sent bytes after the end of its response")
            }
        }
        return events
    }

    /// The connection ended: completes a body that runs to the end of the connection.
    ///
    /// - Throws: ``Malformed`` when the connection ended inside a head or a body of known length.
    mutating func finish() throws(Malformed) -> [Event] {
        switch state {
        case .untilClose:
            state = .done
            return [.end(reusable: false)]
        case .done:
            return []
        case .head:
            throw Malformed(
                description: pending.isEmpty
                    ? "the server closed the connection without a response" : "the connection ended inside the response head")
        default:
            throw Malformed(description: "the connection ended before the end of the response body")
        }
    }

    // MARK: Lines and heads

    /// Takes bytes up to and including `terminator`, returning what came before it, or `nil`
    /// (with everything kept in `pending`) when the terminator has not arrived.
    private mutating func takeLine(
        from input: inout ArraySlice<UInt8>, upTo terminator: [UInt8], limit: Int, what: String
    ) throws(Malformed) -> [UInt8]? {
        // The terminator may straddle what was pending and the new bytes.
        let searchStart = max(0, pending.count - (terminator.count - 1))
        let carried = pending.count - searchStart
        var window = Array(pending[searchStart...])
        window.append(contentsOf: input.prefix(limit + terminator.count))
        if let match = Self.firstRange(of: terminator, in: window) {
            let fromInput = match.upperBound - carried
            var line = pending
            line.append(contentsOf: input.prefix(fromInput))
            line.removeLast(terminator.count)
            input = input.dropFirst(fromInput)
            pending = []
            guard line.count <= limit else { throw Malformed(description: "the \(what) is longer than \(limit) bytes") }
            return line
        }
        pending.append(contentsOf: input)
        input = []
        guard pending.count <= limit + terminator.count else {
            throw Malformed(description: "the \(what) is longer than \(limit) bytes")
        }
        return nil
    }

    private static func firstRange(of needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
        guard haystack.count >= needle.count else { return nil }
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], Array(haystack[index..<index + needle.count]) == needle {
                return index..<index + needle.count
            }
            index += 1
        }
        return nil
    }

    /// Reads a head and decides how its body is framed.
    private mutating func startBody(afterHead head: [UInt8], events: inout [Event]) throws(Malformed) {
        var lines = head.split(separator: 10, omittingEmptySubsequences: false).map { line -> ArraySlice<UInt8> in
            line.last == 13 ? line.dropLast() : line
        }
        guard !lines.isEmpty else { throw Malformed(description: "the response head is empty") }
        let statusLine = String(decoding: lines.removeFirst(), as: UTF8.self)
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]), status >= 100 else {
            throw Malformed(description: "not an HTTP/1.x status line: \(statusLine.prefix(80))")
        }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            if line.first == 32 || line.first == 9 { throw Malformed(description: "a folded header line") }
            guard let colon = line.firstIndex(of: 58) else {
                throw Malformed(description: "a header line without a colon: \(String(decoding: line.prefix(80), as: UTF8.self))")
            }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            guard !name.isEmpty, !name.contains(" "), !name.contains("\t") else {
                throw Malformed(description: "a header name with spaces")
            }
            let value = Self.trimmed(String(decoding: line[(colon + 1)...], as: UTF8.self))
            if let earlier = headers[name] {
                if name == "content-length", earlier != value {
                    throw Malformed(description: "two different Content-Length fields")
                }
                if name != "content-length" { headers[name] = earlier + ", " + value }
            } else {
                headers[name] = value
            }
        }
        if (100..<200).contains(status) {
            // An interim response (100 Continue, 103 Early Hints): the real one follows.
            guard status != 101 else { throw Malformed(description: "the server switched protocols (101)") }
            return
        }
        events.append(.head(status: status, headers: headers))
        let version = parts[0]
        let connection = (headers["connection"] ?? "").lowercased()
        reusable = version == "HTTP/1.1" && !connection.split(separator: ",").contains { Self.trimmed(String($0)) == "close" }
        if headRequest || status == 204 || status == 304 {
            state = .done
            events.append(.end(reusable: reusable))
            return
        }
        if let coding = headers["transfer-encoding"] {
            let codings = coding.lowercased().split(separator: ",").map { Self.trimmed(String($0)) }
            if codings.last == "chunked" {
                state = .chunkSize
            } else {
                reusable = false
                state = .untilClose
            }
            return
        }
        if let length = headers["content-length"] {
            guard let count = Int(length), count >= 0, length.allSatisfy(\.isASCII) else {
                throw Malformed(description: "a Content-Length that is not a number: \(length.prefix(40))")
            }
            if count == 0 {
                state = .done
                events.append(.end(reusable: reusable))
            } else {
                state = .fixed(remaining: count)
            }
            return
        }
        reusable = false
        state = .untilClose
    }

    /// A chunk-size line's size (chunk extensions after `;` ignored).
    private static func chunkSize(_ line: [UInt8]) throws(Malformed) -> Int {
        let text = trimmed(String(decoding: line.prefix { $0 != 59 }, as: UTF8.self))
        // At most 15 hexadecimal digits: sizes fit in an Int, and no body is that large anyway.
        guard !text.isEmpty, text.count <= 15, text.allSatisfy(\.isHexDigit), let size = Int(text, radix: 16) else {
            throw Malformed(description: "a chunk size that is not hexadecimal: \(text.prefix(20))")
        }
        return size
    }

    private static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
