/// The names the model calls tools by, mapped to the names the server knows, and back.
///
/// MCP tool names may contain `.` and `-` (`admin.tools.list`); the model is offered names
/// made of `[A-Za-z0-9_]` only (`admin_tools_list`). The mapping is deterministic and
/// one-to-one:
///
/// 1. a name kept from an earlier map (``init(serverNames:preserving:)``) keeps its model name,
///    so a conversation's earlier tool calls still refer to the same tool;
/// 2. a server name that is already a valid model name is used as it is;
/// 3. every other name, in ascending order, gets its characters outside `[A-Za-z0-9_]`
///    replaced by `_` (a leading digit gets a `_` before it), then `_2`, `_3`, … while the
///    result is taken.
///
/// ```swift
/// let names = ToolNameMap(serverNames: ["admin.tools.list", "admin_tools_list"])
/// names.modelName(for: "admin_tools_list")   // "admin_tools_list"
/// names.modelName(for: "admin.tools.list")   // "admin_tools_list_2"
/// names.serverName(for: "admin_tools_list_2") // "admin.tools.list"
/// ```
public struct ToolNameMap: Hashable, Sendable {
    private var modelNames: [String: String] = [:]
    private var serverNames: [String: String] = [:]

    /// The longest model name; longer names are cut (before the collision suffix).
    public static let maximumLength = 64

    /// Maps `serverNames` (duplicates count once).
    ///
    /// - Parameters:
    ///   - serverNames: The tools' names as the server lists them.
    ///   - previous: An earlier map whose assignments are kept for names still present.
    public init(serverNames names: some Sequence<String>, preserving previous: ToolNameMap? = nil) {
        var pending = Set(names)
        if let previous {
            for (server, model) in previous.modelNames.sorted(by: { $0.key < $1.key }) where pending.contains(server) {
                assign(server, model)
                pending.remove(server)
            }
        }
        for server in pending.sorted() where Self.isValidModelName(server) && serverNames[server] == nil {
            assign(server, server)
            pending.remove(server)
        }
        for server in pending.sorted() {
            let base = Self.sanitized(server)
            var candidate = base
            var suffix = 2
            while serverNames[candidate] != nil {
                candidate = "\(base)_\(suffix)"
                suffix += 1
            }
            assign(server, candidate)
        }
    }

    private mutating func assign(_ server: String, _ model: String) {
        modelNames[server] = model
        serverNames[model] = server
    }

    /// The name the model calls the server's tool `serverName` by.
    public func modelName(for serverName: String) -> String? {
        modelNames[serverName]
    }

    /// The server's name for the tool the model calls `modelName`.
    public func serverName(for modelName: String) -> String? {
        serverNames[modelName]
    }

    /// Every mapping, ordered by server name.
    public var mappings: [(serverName: String, modelName: String)] {
        modelNames.sorted { $0.key < $1.key }.map { (serverName: $0.key, modelName: $0.value) }
    }

    /// Whether `name` can be offered to the model as it is.
    public static func isValidModelName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first), name.unicodeScalars.count <= maximumLength else {
            return false
        }
        return name.unicodeScalars.allSatisfy(isIdentifierScalar)
    }

    /// `name` with every character outside `[A-Za-z0-9_]` replaced by `_`.
    package static func sanitized(_ name: String) -> String {
        var scalars = String.UnicodeScalarView(name.unicodeScalars.prefix(maximumLength).map { isIdentifierScalar($0) ? $0 : "_" })
        if scalars.isEmpty { scalars.append(contentsOf: "tool".unicodeScalars) }
        if let first = scalars.first, ("0"..."9").contains(first) { scalars.insert("_", at: scalars.startIndex) }
        return String(scalars)
    }

    private static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }
}
