// The spellings from before issue #21, kept for source compatibility: `serverName` named the
// tool's name on its server beside `server`, the server's label.

extension ToolCandidate {
    /// The tool's name on its server.
    @available(*, deprecated, renamed: "toolNameOnServer")
    public var serverName: String {
        get { toolNameOnServer }
        set { toolNameOnServer = newValue }
    }

    @available(*, deprecated, renamed: "init(name:toolNameOnServer:server:title:description:parameterNames:parameterDescriptions:tokens:)")
    public init(
        name: String, serverName: String?, server: String? = nil, title: String? = nil, description: String,
        parameterNames: [String] = [], parameterDescriptions: [String] = [], tokens: Int
    ) {
        self.init(
            name: name, toolNameOnServer: serverName, server: server, title: title, description: description,
            parameterNames: parameterNames, parameterDescriptions: parameterDescriptions, tokens: tokens)
    }
}

extension ToolSelection.Exclusion {
    /// The tool's name on its server.
    @available(*, deprecated, renamed: "toolNameOnServer")
    public var serverName: String {
        get { toolNameOnServer }
        set { toolNameOnServer = newValue }
    }

    @available(*, deprecated, renamed: "init(name:toolNameOnServer:reason:)")
    public init(name: String, serverName: String, reason: String) {
        self.init(name: name, toolNameOnServer: serverName, reason: reason)
    }
}

extension ToolCallStart {
    /// The tool's name on its server.
    @available(*, deprecated, renamed: "toolNameOnServer")
    public var serverName: String {
        get { toolNameOnServer }
        set { toolNameOnServer = newValue }
    }

    @available(*, deprecated, renamed: "init(tool:server:toolNameOnServer:arguments:)")
    public init(tool: String, server: String, serverName: String, arguments: String) {
        self.init(tool: tool, server: server, toolNameOnServer: serverName, arguments: arguments)
    }
}

extension ToolCallRequest {
    /// The tool's name on its server.
    @available(*, deprecated, renamed: "toolNameOnServer")
    public var serverName: String {
        get { toolNameOnServer }
        set { toolNameOnServer = newValue }
    }
}
