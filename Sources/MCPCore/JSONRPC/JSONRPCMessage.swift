/// One JSON-RPC 2.0 message, parsed once and classified by which members it has.
///
/// - A ``request(_:)`` has `method` and `id`, and expects a response.
/// - A ``notification(_:)`` has `method` and no `id`, and gets no response.
/// - A ``response(_:)`` has `result`; an ``errorResponse(_:)`` has `error`.
/// - A ``batch(_:)`` is a JSON array of messages (JSON-RPC batching, which MCP allows
///   only in protocol version 2025-03-26); its elements are kept as values so that the
///   receiver decides whether to process or refuse it.
public enum JSONRPCMessage: Hashable, Sendable {
    case request(JSONRPCRequest)
    case notification(JSONRPCNotification)
    case response(JSONRPCResponse)
    case errorResponse(JSONRPCErrorResponse)
    case batch([JSONValue])
}

/// A request: a method call that expects a response with the same id.
public struct JSONRPCRequest: Hashable, Sendable {
    public var id: RequestID
    public var method: String
    /// The parameters: an object or an array, or `nil` when absent.
    public var params: JSONValue?

    public init(id: RequestID, method: String, params: JSONValue? = nil) {
        self.id = id
        self.method = method
        self.params = params
    }
}

/// A notification: a method call that gets no response.
public struct JSONRPCNotification: Hashable, Sendable {
    public var method: String
    public var params: JSONValue?

    public init(method: String, params: JSONValue? = nil) {
        self.method = method
        self.params = params
    }
}

/// A successful response to the request with the same id.
public struct JSONRPCResponse: Hashable, Sendable {
    public var id: RequestID
    public var result: JSONValue

    public init(id: RequestID, result: JSONValue) {
        self.id = id
        self.result = result
    }
}

/// An error response; `id` is `nil` (`null` on the wire) when the request's id could not be read.
public struct JSONRPCErrorResponse: Hashable, Sendable {
    public var id: RequestID?
    public var error: JSONRPCError

    public init(id: RequestID?, error: JSONRPCError) {
        self.id = id
        self.error = error
    }
}

/// A message that is not valid JSON-RPC, with the error to answer it with.
///
/// Two ids, for two uses:
/// - ``id`` is the id the answer names (``response``): set only when the frame was read as
///   well-formed JSON, or as a well-formed prefix of it, and is a JSON-RPC 2.0 *request*
///   (`"jsonrpc": "2.0"`, a string `method`, a string or integer `id`) that is wrong in some
///   other way (its `params`). Text that is not JSON, JSON nested too deeply, a wrong or
///   missing version, a `method` that is not a string and anything shaped like a response
///   get `id: null`, as JSON-RPC 2.0 §5.1 asks: an id scanned out of broken text, or taken
///   from what may be a reply, would name a request the peer never sent, or one of its own
///   that is still waiting for something else.
/// - ``apparentID`` is the id the frame seems to carry, read from its first bytes even when
///   the rest is broken. A *client* uses it to fail the matching call at once instead of
///   letting it wait for its timeout; it never goes on the wire.
public struct InvalidMessage: Error, Hashable, Sendable, CustomStringConvertible {
    /// The id the answer names; `nil` (`null` on the wire) unless a well-formed request carried it.
    public var id: RequestID?
    /// The id the frame appears to carry, for the receiver's own bookkeeping; never sent.
    ///
    /// Equal to ``id`` when that is set.
    public var apparentID: RequestID?
    public var error: JSONRPCError

    /// An invalid message whose answer names `id`; `apparentID` defaults to `id`.
    public init(id: RequestID?, error: JSONRPCError, apparentID: RequestID? = nil) {
        self.id = id
        self.error = error
        self.apparentID = id ?? apparentID
    }

    /// The error response that answers this message: ``error`` with ``id`` (never ``apparentID``).
    public var response: JSONRPCMessage {
        .errorResponse(JSONRPCErrorResponse(id: id, error: error))
    }

    public var description: String { error.description }
}

extension JSONRPCMessage {
    /// Classifies a JSON value as a JSON-RPC message.
    ///
    /// - Throws: ``InvalidMessage`` with a `-32600` error (and the id, when readable) when
    ///   the value is not a JSON-RPC 2.0 message.
    public init(_ json: JSONValue) throws(InvalidMessage) {
        switch json {
        case .object(let object):
            self = try Self.classify(object)
        case .array(let elements):
            guard !elements.isEmpty else {
                throw InvalidMessage(id: nil, error: .invalidRequest("an empty array is not a batch"))
            }
            self = .batch(elements)
        default:
            throw InvalidMessage(id: nil, error: .invalidRequest("a message must be a JSON object, not \(json.typeName)"))
        }
    }

    /// Parses one line of JSON text as a JSON-RPC message.
    ///
    /// - Throws: ``InvalidMessage``: `-32700` with no id when the text is not JSON,
    ///   `-32600` when it is JSON but not a JSON-RPC message.
    public init<Bytes: Collection>(parsing bytes: Bytes) throws(InvalidMessage) where Bytes.Element == UInt8 {
        let json: JSONValue
        do {
            json = try JSONReader().read(bytes)
        } catch {
            throw InvalidMessage(id: nil, error: .parseError(error.description))
        }
        try self.init(json)
    }

    private static func classify(_ object: JSONObject) throws(InvalidMessage) -> JSONRPCMessage {
        let rawID = object["id"]
        let id = rawID.flatMap(RequestID.init)
        // Only the id of a JSON-RPC 2.0 request (a string method) may name the answer: anything
        // else may be a reply, whose id belongs to a request of the receiver's own, and an
        // error with that id would land on it.
        guard case .string("2.0")? = object["jsonrpc"] else {
            throw InvalidMessage(id: nil, error: .invalidRequest("the \"jsonrpc\" member must be \"2.0\""), apparentID: id)
        }
        if let method = object["method"] {
            guard case .string(let name) = method else {
                throw InvalidMessage(id: nil, error: .invalidRequest("\"method\" must be a string, not \(method.typeName)"), apparentID: id)
            }
            let params = object["params"]
            if let params {
                switch params {
                case .object, .array: break
                default:
                    throw InvalidMessage(
                        id: id, error: .invalidRequest("\"params\" must be an object or an array, not \(params.typeName)"))
                }
            }
            guard let rawID else {
                return .notification(JSONRPCNotification(method: name, params: params))
            }
            guard let id else {
                throw InvalidMessage(
                    id: nil, error: .invalidRequest("\"id\" must be a string or an integer, not \(rawID.typeName)"))
            }
            return .request(JSONRPCRequest(id: id, method: name, params: params))
        }
        if let result = object["result"] {
            guard let id else {
                throw InvalidMessage(id: nil, error: .invalidRequest("a response needs a string or integer \"id\""))
            }
            return .response(JSONRPCResponse(id: id, result: result))
        }
        if let error = object["error"] {
            guard let wireError = JSONRPCError(json: error) else {
                throw InvalidMessage(
                    id: nil, error: .invalidRequest("\"error\" must be an object with an integer code and a string message"),
                    apparentID: id)
            }
            if let rawID, !rawID.isNull, id == nil {
                throw InvalidMessage(id: nil, error: .invalidRequest("\"id\" must be a string, an integer or null"))
            }
            return .errorResponse(JSONRPCErrorResponse(id: id, error: wireError))
        }
        throw InvalidMessage(id: nil, error: .invalidRequest("a message needs \"method\", \"result\" or \"error\""), apparentID: id)
    }

    /// The message as a JSON value.
    public var json: JSONValue {
        var object = JSONObject(minimumCapacity: 4)
        object["jsonrpc"] = "2.0"
        switch self {
        case .request(let request):
            object["id"] = request.id.json
            object["method"] = .string(request.method)
            if let params = request.params { object["params"] = params }
        case .notification(let notification):
            object["method"] = .string(notification.method)
            if let params = notification.params { object["params"] = params }
        case .response(let response):
            object["id"] = response.id.json
            object["result"] = response.result
        case .errorResponse(let response):
            object["id"] = response.id?.json ?? .null
            object["error"] = response.error.json
        case .batch(let elements):
            return .array(elements)
        }
        return .object(object)
    }

    /// The message as one line of compact JSON text, without the newline.
    ///
    /// - Throws: ``JSONWriteError`` when a value holds a non-finite double.
    ///
    /// The envelope is written directly, with the same keys in the same order as ``json``,
    /// so a message costs no intermediate object (a few allocations for every message sent).
    public func encoded() throws(JSONWriteError) -> [UInt8] {
        if case .batch = self { return try json.jsonBytes() }
        var buffer = Self.startingLine()
        let writer = JSONWriter()
        /// Appends `key` (the comma, the quoted name and the colon) and `value`.
        func member(_ key: StaticString, _ value: JSONValue) throws(JSONWriteError) {
            buffer.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            try writer.write(value, into: &buffer)
        }
        do {
            switch self {
            case .request(let request):
                try member(#","id":"#, request.id.json)
                try member(#","method":"#, .string(request.method))
                if let params = request.params { try member(#","params":"#, params) }
            case .notification(let notification):
                try member(#","method":"#, .string(notification.method))
                if let params = notification.params { try member(#","params":"#, params) }
            case .response(let response):
                try member(#","id":"#, response.id.json)
                try member(#","result":"#, response.result)
            case .errorResponse(let response):
                try member(#","id":"#, response.id?.json ?? .null)
                try member(#","error":"#, response.error.json)
            case .batch:
                break
            }
        } catch {
            // A non-finite double: written again whole, for an error that locates it in the message.
            return try json.jsonBytes()
        }
        buffer.append(UInt8(ascii: "}"))
        return buffer
    }

    /// A message's line as it starts, `{"jsonrpc":"2.0"`, with room for most answers and the
    /// transport's newline, so that the buffer is not grown.
    private static func startingLine() -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(256)
        buffer.append(contentsOf: #"{"jsonrpc":"2.0""#.utf8)
        return buffer
    }

    /// A response as one line of compact JSON text, without the newline, its result written
    /// by `writeResult` (as ``encoded()`` would write the response holding that result).
    ///
    /// For a server that writes a result straight to text, with no intermediate tree.
    ///
    /// - Throws: What `writeResult` throws.
    package static func encodedResponse(
        id: RequestID, writingResult writeResult: (inout [UInt8]) throws(JSONWriteError) -> Void
    ) throws(JSONWriteError) -> [UInt8] {
        var buffer = startingLine()
        buffer.append(contentsOf: #","id":"#.utf8)
        try JSONWriter().write(id.json, into: &buffer)
        buffer.append(contentsOf: #","result":"#.utf8)
        try writeResult(&buffer)
        buffer.append(UInt8(ascii: "}"))
        return buffer
    }

    /// The request id, for requests and responses.
    public var id: RequestID? {
        switch self {
        case .request(let request): request.id
        case .response(let response): response.id
        case .errorResponse(let response): response.id
        case .notification, .batch: nil
        }
    }
}

extension JSONRPCMessage: CustomStringConvertible {
    /// The message as compact JSON text.
    public var description: String { json.description }
}
