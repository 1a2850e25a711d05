#if !canImport(FoundationModels)
// PortableFoundationModels is empty where Apple's FoundationModels exists, and its API carries
// no availability of its own, so these tests build wherever the portable module has content.
import Foundation
import PortableFoundationModels
import Testing

/// A tool with runtime-built parameters, as the MCP bridge makes them.
struct ClosureTool: Tool {
    let name: String
    let description: String
    let parameters: GenerationSchema
    let body: @Sendable (GeneratedContent) async throws -> String

    init(
        name: String, description: String = "A test tool", parameters: GenerationSchema,
        body: @escaping @Sendable (GeneratedContent) async throws -> String
    ) {
        self.name = name
        self.description = description
        self.parameters = parameters
        self.body = body
    }

    func call(arguments: GeneratedContent) async throws -> String {
        try await body(arguments)
    }
}

func objectSchema(_ name: String, _ properties: [DynamicGenerationSchema.Property] = []) throws -> GenerationSchema {
    try GenerationSchema(root: DynamicGenerationSchema(name: name, properties: properties), dependencies: [])
}

func cityTool(name: String = "get_weather", body: @escaping @Sendable (String) async throws -> String) throws -> ClosureTool {
    ClosureTool(
        name: name,
        parameters: try objectSchema(
            "\(name)_arguments",
            [
                .init(name: "city", schema: DynamicGenerationSchema(type: String.self)),
                .init(name: "days", schema: DynamicGenerationSchema(type: Int.self, guides: [.range(1...14)]), isOptional: true),
            ])
    ) { arguments in
        try await body(try arguments.value(String.self, forProperty: "city"))
    }
}

/// Resumes everyone who waits once `count` parties have arrived.
actor Barrier {
    private let count: Int
    private var arrived = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { self.count = count }

    func arriveAndWait() async {
        arrived += 1
        if arrived >= count {
            waiters.forEach { $0.resume() }
            waiters.removeAll()
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }
}

/// A gate that holds waiters until it is opened.
actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters.removeAll()
    }
}

func encodeSorted(_ schema: GenerationSchema) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(schema), as: UTF8.self)
}

struct Boom: Error, Equatable {}
#endif
