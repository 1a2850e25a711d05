import JSONSchema
import MCPCore

/// Validation time for a typical tool `inputSchema`.
enum ValidationBenchmarks {
    static let schema: JSONValue = [
        "type": "object",
        "properties": [
            "query": ["type": "string", "minLength": 1, "description": "What to look for"],
            "limit": ["type": "integer", "minimum": 1, "maximum": 100],
            "sort": ["type": "string", "enum": ["relevance", "date", "title"]],
            "includeArchived": ["type": "boolean"],
            "tags": ["type": "array", "items": ["type": "string"], "maxItems": 10],
        ],
        "required": ["query"],
        "additionalProperties": false,
    ]

    static let valid: JSONValue = [
        "query": "trip to Lisbon", "limit": 5, "sort": "date", "includeArchived": false, "tags": ["travel", "work"],
    ]
    static let invalid: JSONValue = ["query": "", "limit": 500, "sort": "size", "extra": true]

    static func run() throws {
        print("## JSON Schema validation (typical tool inputSchema: 5 properties, required, enum, bounds)")
        print("")
        let compiled = try JSONSchema(schema)
        let compile = Harness.measure("compile") { blackHole(try? JSONSchema(schema)) }
        let accept = Harness.measure("valid") { blackHole(compiled.validate(valid)) }
        let reject = Harness.measure("invalid") { blackHole(compiled.validate(invalid)) }
        print("compile schema                \(Harness.padLeft(Harness.format(nanoseconds: compile.nanosecondsPerIteration), 10))")
        print("validate valid arguments      \(Harness.padLeft(Harness.format(nanoseconds: accept.nanosecondsPerIteration), 10))")
        print("validate invalid (4 errors)   \(Harness.padLeft(Harness.format(nanoseconds: reject.nanosecondsPerIteration), 10))")
        print("")
    }
}
