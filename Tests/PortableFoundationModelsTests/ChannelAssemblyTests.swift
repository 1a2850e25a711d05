#if !canImport(FoundationModels)
import Foundation
import PortableFoundationModels
import Testing

/// A stream of channel events and the transcript entries a session makes of it.
struct AssemblyCase: Sendable, CustomTestStringConvertible {
    let name: String
    let events: [Channel.Event]
    /// The entries the request adds, as `kind: text`.
    let entries: [String]

    var testDescription: String { name }
}

/// How a session assembles what an executor streams into transcript entries.
@Suite("27: channel events become transcript entries")
struct ChannelAssemblyTests {
    static let cases: [AssemblyCase] = [
        AssemblyCase(
            name: "consecutive response events without an id coalesce into one entry",
            events: [.response(action: .appendText("It ", tokenCount: 1)), .response(action: .appendText("rains.", tokenCount: 1))],
            entries: ["response: It rains."]),
        AssemblyCase(
            name: "interleaving kinds without ids splits entries",
            events: [
                .reasoning(action: .appendText("Think", tokenCount: 1)), .response(action: .appendText("A", tokenCount: 1)),
                .reasoning(action: .appendText("More", tokenCount: 1)), .response(action: .appendText("B", tokenCount: 1)),
            ],
            entries: ["reasoning: Think", "response: A", "reasoning: More", "response: B"]),
        AssemblyCase(
            name: "one stable id per kind anchors interleaved events to two entries",
            events: [
                .reasoning(entryID: "r", action: .appendText("Think", tokenCount: 1)),
                .response(entryID: "a", action: .appendText("A", tokenCount: 1)),
                .reasoning(entryID: "r", action: .appendText(" more", tokenCount: 1)),
                .response(entryID: "a", action: .appendText("B", tokenCount: 1)),
            ],
            entries: ["reasoning: Think more", "response: AB"]),
        AssemblyCase(
            name: "an event without an id joins the trailing entry of its kind, whatever its id",
            events: [.response(entryID: "a", action: .appendText("A", tokenCount: 1)), .response(action: .appendText("B", tokenCount: 1))],
            entries: ["response: AB"]),
        AssemblyCase(
            name: "a named segment is a segment of its own; a replacement without an id replaces the current one",
            events: [
                .response(action: .appendText("It is", tokenCount: 1)),
                .response(action: .appendText(" mild", segmentID: "tail", tokenCount: 1)),
                .response(action: .replaceTextSegment(" warm", segmentID: "tail", tokenCount: 1)),
                .response(action: .appendText(".", tokenCount: 1)),
            ],
            entries: ["response: It is| warm."]),
        AssemblyCase(
            name: "an attachment splits text segments and can be removed",
            events: [
                .response(action: .appendText("See", tokenCount: 1)),
                .response(
                    action: .addAttachmentSegment(
                        Transcript.AttachmentSegment(
                            id: "img", content: .image(Transcript.ImageAttachment(data: Data([1]), contentType: "image/png")), label: "map")
                    )),
                .response(action: .appendText("here", tokenCount: 1)),
                .response(
                    action: .addAttachmentSegment(
                        Transcript.AttachmentSegment(
                            id: "gone", content: .image(Transcript.ImageAttachment(data: Data([2]), contentType: "image/png"))))),
                .response(action: .removeAttachmentSegment(id: "gone")),
            ],
            entries: ["response: See|[map]|here"]),
        AssemblyCase(
            name: "a signature alone makes a reasoning entry; a reasoning entry with nothing in it is left out",
            events: [
                .reasoning(entryID: "empty", action: .updateMetadata(["k": 1])),
                .reasoning(entryID: "signed", action: .updateSignature(Data([9]), tokenCount: 1)),
                .response(action: .appendText("ok", tokenCount: 1)),
            ],
            entries: ["reasoning: ", "response: ok"]),
    ]

    @Test("Events are assembled by entry id and kind", arguments: cases)
    func assembly(_ test: AssemblyCase) async throws {
        let model = ProviderModel([.events(test.events)])
        let session = LanguageModelSession(model: model)
        try await session.respond(to: "Go")
        let added = session.transcript.dropFirst().map { "\($0.kind): \($0.text)" }
        #expect(added == test.entries)
    }

    @Test("Explicit entry ids become the entries' ids")
    func explicitIDs() async throws {
        let model = ProviderModel([
            .events([
                .reasoning(entryID: "thought-1", action: .appendText("Hmm", tokenCount: 1)),
                .response(entryID: "answer-1", action: .appendText("Yes", tokenCount: 1)),
            ])
        ])
        let session = LanguageModelSession(model: model)
        try await session.respond(to: "Go")
        #expect(session.transcript.dropFirst().map(\.id) == ["thought-1", "answer-1"])
    }

    @Test("Tool-call fragments accumulate per call id, interleaved; a retracted call is dropped; the session parses the arguments")
    func toolCallFragments() async throws {
        let seen = EventLog()
        let weather = EchoTool("weather") { arguments in
            seen.add(try arguments.value(String.self, forProperty: "city"))
            return "mild"
        }
        let model = ProviderModel([
            .events([
                .toolCalls(
                    entryID: "calls", action: .toolCall(id: "1", name: "weather", action: .appendArguments(#"{"ci"#, tokenCount: 1))),
                .toolCalls(
                    entryID: "calls", action: .toolCall(id: "2", name: "weather", action: .appendArguments(#"{"city""#, tokenCount: 1))),
                .toolCalls(entryID: "calls", action: .toolCall(id: "3", name: "weather", action: .appendArguments("{", tokenCount: 1))),
                .toolCalls(
                    entryID: "calls", action: .toolCall(id: "1", name: "weather", action: .appendArguments(#"ty":"Paris"}"#, tokenCount: 1))
                ),
                .toolCalls(
                    entryID: "calls", action: .toolCall(id: "2", name: "weather", action: .appendArguments(#":"Rome"}"#, tokenCount: 1))),
                .toolCalls(entryID: "calls", action: .removeToolCall(id: "3")),
                .toolCalls(entryID: "calls", action: .toolCall(id: "1", name: "weather", action: .updateMetadata(["index": 0]))),
            ]),
            .text("Both mild."),
        ])
        let session = LanguageModelSession(model: model, tools: [weather])
        let response = try await session.respond(to: "Paris and Rome?")
        #expect(response.content == "Both mild.")
        #expect(Set(seen.events) == ["Paris", "Rome"])
        guard case .toolCalls(let calls)? = session.transcript.first(where: { $0.kind == "toolCalls" }) else {
            Issue.record("no tool calls in \(session.transcript)")
            return
        }
        #expect(calls.id == "calls")
        #expect(calls.map(\.id) == ["1", "2"])
        #expect(calls.map(\.arguments.jsonString) == [#"{"city":"Paris"}"#, #"{"city":"Rome"}"#])
        #expect(calls.first?.metadata["index"] == GeneratedContent(0))
        let outputs = session.transcript.compactMap { entry -> String? in
            if case .toolOutput(let output) = entry { return output.id }
            return nil
        }
        #expect(outputs == ["1", "2"], "each output carries its call's id")
    }

    @Test("A call without argument text has empty arguments")
    func callWithoutArguments() async throws {
        let tool = EchoTool("ping")
        let model = ProviderModel([
            .events([.toolCalls(action: .toolCall(id: "p", name: "ping", action: .updateMetadata([:])))]),
            .text("pong"),
        ])
        let session = LanguageModelSession(model: model, tools: [tool])
        #expect(try await session.respond(to: "Ping?").content == "pong")
        #expect(session.transcript.first { $0.kind == "toolCalls" }?.text == "ping({})")
    }

    @Test(
        "Arguments that are not complete JSON fail the response with a ParsingError carrying them",
        arguments: [#"{"city":"Pa"#, "not json"])
    func unreadableArguments(_ arguments: String) async throws {
        let model = ProviderModel([.call("weather", arguments)])
        let session = LanguageModelSession(model: model, tools: [EchoTool("weather")])
        let error = await #expect(throws: GeneratedContent.ParsingError.self) {
            try await session.respond(to: "Weather?")
        }
        #expect(error?.rawContent == arguments)
    }

    @Test("Metadata updates replace the entry's metadata, and stored values are GeneratedContent")
    func metadata() async throws {
        let model = ProviderModel([
            .events([
                .response(action: .updateMetadata(["model": "m-1", "attempt": 1])),
                .response(action: .updateMetadata(["model": "m-2"])),
                .response(action: .appendText("ok", tokenCount: 1)),
            ])
        ])
        let session = LanguageModelSession(model: model)
        let response = try await session.respond(to: "Hi")
        guard case .response(let entry)? = response.transcriptEntries.last else {
            Issue.record("no response entry")
            return
        }
        #expect(entry.metadata == ["model": GeneratedContent("m-2")])
    }

    @Test("An executor that streams thousands of deltas through the bounded channel gets every one assembled, in order")
    func manyDeltas() async throws {
        let count = 5_000
        let model = ProviderModel([
            Step { _, channel in
                for index in 0..<count { await channel.send(.response(action: .appendText("\(index % 10)", tokenCount: 1))) }
            }
        ])
        let response = try await LanguageModelSession(model: model).respond(to: "Count")
        #expect(response.content == String((0..<count).map { Character("\($0 % 10)") }))
        #expect(response.usage.output.totalTokenCount == count)
    }

    @Test("A stream reader sees the answer grow with each delta, then the complete answer")
    func streamedSnapshots() async throws {
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let model = ProviderModel([
            Step { _, channel in
                await channel.send(.response(action: .appendText("Hel", tokenCount: 1)))
                for await _ in gate { break }
                await channel.send(.response(action: .appendText("lo", tokenCount: 1)))
            }
        ])
        let session = LanguageModelSession(model: model)
        var iterator = session.streamResponse(to: Prompt("Hi"), contextOptions: ContextOptions()).makeAsyncIterator()
        let first = try #require(try await iterator.next())
        #expect(first.content == "Hel")
        #expect(first.transcriptEntries.map(\.kind) == ["prompt", "response"])
        open.yield()
        var last = first
        while let snapshot = try await iterator.next() { last = snapshot }
        #expect(last.content == "Hello")
        #expect(last.rawContent.isComplete)
        #expect(last.usage.output.totalTokenCount == 2)
    }
}
#endif
