/// One block of a tool result's `content`: text, an image, audio, or a resource.
///
/// Blocks of a type this library does not know are kept whole as ``other(_:)``, so a
/// result from a newer peer never fails to read.
public enum ContentBlock: Hashable, Sendable {
    /// `{"type":"text","text":…}`.
    case text(String)
    /// `{"type":"image","data":<base64>,"mimeType":…}`.
    case image(data: String, mimeType: String)
    /// `{"type":"audio","data":<base64>,"mimeType":…}` (2025-03-26 and later).
    case audio(data: String, mimeType: String)
    /// `{"type":"resource_link","uri":…,"name":…,…}` (2025-06-18 and later); the whole object.
    case resourceLink(JSONObject)
    /// `{"type":"resource","resource":{"uri":…,"text"|"blob":…}}`; the whole object.
    case resource(JSONObject)
    /// Any other block, or a known type with extra members (`annotations`, `_meta`), kept whole.
    case other(JSONObject)

    /// Reads a content block.
    public init(json: JSONValue) {
        guard case .object(let object) = json else {
            self = .other(["value": json])
            return
        }
        let type = object["type"]?.stringValue
        switch type {
        case "text" where object.count == 2:
            if case .string(let text)? = object["text"] {
                self = .text(text)
                return
            }
        case "image" where object.count == 3, "audio" where object.count == 3:
            if case .string(let data)? = object["data"], case .string(let mimeType)? = object["mimeType"] {
                self = type == "image" ? .image(data: data, mimeType: mimeType) : .audio(data: data, mimeType: mimeType)
                return
            }
        case "resource_link":
            self = .resourceLink(object)
            return
        case "resource":
            self = .resource(object)
            return
        default:
            break
        }
        self = .other(object)
    }

    /// The block as it appears on the wire.
    public var json: JSONValue {
        switch self {
        case .text(let text):
            return .object(JSONObject(uniqueEntries: [.init(key: "type", value: "text"), .init(key: "text", value: .string(text))]))
        case .image(let data, let mimeType):
            return ["type": "image", "data": .string(data), "mimeType": .string(mimeType)]
        case .audio(let data, let mimeType):
            return ["type": "audio", "data": .string(data), "mimeType": .string(mimeType)]
        case .resourceLink(let object), .resource(let object), .other(let object):
            return .object(object)
        }
    }

    /// The block's `type` member.
    public var type: String {
        switch self {
        case .text: "text"
        case .image: "image"
        case .audio: "audio"
        case .resourceLink: "resource_link"
        case .resource: "resource"
        case .other(let object): object["type"]?.stringValue ?? "unknown"
        }
    }

    /// The text, for a text block (also one with extra members).
    public var text: String? {
        switch self {
        case .text(let text): text
        case .other(let object) where object["type"] == "text": object["text"]?.stringValue
        default: nil
        }
    }
}
