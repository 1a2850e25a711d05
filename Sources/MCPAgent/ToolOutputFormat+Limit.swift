package import MCPCore

extension ToolOutputFormat {
    /// The characters a frame and an error hint take around a body, about.
    static let frameAllowance = 200

    /// This format with its body cut to fit `characters` of room, frame included (never
    /// below 200 characters of body), or unchanged when there is no such limit or it is wider.
    package func limited(to characters: Int?) -> ToolOutputFormat {
        guard let characters else { return self }
        let body = max(200, characters - Self.frameAllowance)
        guard body < maximumCharacters else { return self }
        var format = self
        format.maximumCharacters = body
        return format
    }

    /// Whether the body the model would read of `result` is longer than this format keeps.
    package func wouldCut(_ result: CallToolResult) -> Bool {
        var characters = result.content.reduce(0) { $0 + ($1.text?.count ?? 0) + 1 }
        if characters <= result.content.count, let structured = result.structuredContent {
            characters = structured.description.count
        }
        return characters > maximumCharacters
    }
}
