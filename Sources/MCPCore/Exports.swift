// MCPCore's protocol types are built from JSONCore's values, so every `import MCPCore`
// also brings in JSONValue, JSONReader, JSONWriter and the rest of JSONCore.
@_exported public import JSONCore
