import Foundation
import JSONCore
import PortableFoundationModels
import Testing

@testable import ChatCompletions

/// Requests and answers of the chat-completions backend, without a server.
@Suite("Chat-completions requests and answers")
struct ChatRequestBuilderTests {
    static func schema(_ properties: [String]) throws -> GenerationSchema {
        try GenerationSchema(
            root: DynamicGenerationSchema(
                name: "Arguments",
                properties: properties.map {
                    DynamicGenerationSchema.Property(name: $0, schema: DynamicGenerationSchema(type: String.self))
                }),
            dependencies: [])
    }

    static func tools() throws -> [LanguageModelToolDescription] {
        [
            LanguageModelToolDescription(name: "notes_add", description: "Adds a note.", parameters: try schema(["text"])),
            LanguageModelToolDescription(name: "clock_now", description: "The current time.", parameters: try schema([])),
        ]
    }

    static func request(
        _ entries: [Transcript.Entry] = [], tools: [LanguageModelToolDescription], schema: GenerationSchema? = nil,
        options: GenerationOptions = GenerationOptions()
    ) -> LanguageModelRequest {
        let prompt = Transcript.Prompt(segments: [.text(Transcript.TextSegment(content: "Add a note: buy milk"))])
        let instructions = Transcript.Entry.instructions(
            Transcript.Instructions(segments: [.text(Transcript.TextSegment(content: "Be brief."))], toolDefinitions: []))
        return LanguageModelRequest(
            transcript: Transcript(entries: [instructions, .prompt(prompt)] + entries), tools: tools, prompt: prompt, schema: schema,
            options: options)
    }

    @Test("Guided: the answer format offers an answer or one call of each tool, by its exact name, with its arguments' schema")
    func guidedSchema() throws {
        let built = try ChatRequestBuilder.build(Self.request(tools: Self.tools()), model: "m", configuration: .init(), stream: true)
        #expect(built.shape == .guided(structured: false))
        let body = built.body
        #expect(body["model"]?.stringValue == "m")
        #expect(body["stream"]?.boolValue == true)
        #expect(body["tools"] == nil)
        let schema = try #require(body["response_format"]?["json_schema"]?["schema"])
        let choices = try #require(schema["anyOf"]?.arrayValue)
        #expect(choices.count == 3)
        #expect(choices[0]["properties"]?["answer"]?["type"]?.stringValue == "string")
        #expect(choices[1]["properties"]?["tool"]?["const"]?.stringValue == "notes_add")
        #expect(choices[1]["properties"]?["arguments"]?["properties"]?["text"]?["type"]?.stringValue == "string")
        #expect(choices[2]["properties"]?["tool"]?["const"]?.stringValue == "clock_now")
        // The system message: the app's instructions, then what the format means and the tools.
        let system = try #require(body["messages"]?.arrayValue?.first)
        #expect(system["role"]?.stringValue == "system")
        let text = try #require(system["content"]?.stringValue)
        #expect(text.hasPrefix("Be brief.\n\n"))
        #expect(text.contains("- notes_add: Adds a note."))
    }

    @Test("A schema's own $defs move to the root under a prefix, with their references")
    func hoistedDefinitions() throws {
        let point = DynamicGenerationSchema(
            name: "Point", properties: [DynamicGenerationSchema.Property(name: "x", schema: DynamicGenerationSchema(type: Int.self))])
        let root = DynamicGenerationSchema(
            name: "Shape",
            properties: [DynamicGenerationSchema.Property(name: "corner", schema: DynamicGenerationSchema(referenceTo: "Point"))])
        let parameters = try GenerationSchema(root: root, dependencies: [point])
        let tool = LanguageModelToolDescription(name: "draw", description: "Draws.", parameters: parameters)
        let schema = try ChatRequestBuilder.guidedSchema(tools: [ChatRequest.Tool(tool)], answer: nil)
        let definitions = try #require(schema["$defs"]?.objectValue)
        #expect(definitions.keys.contains("tool0_Point"))
        let corner = try #require(schema["anyOf"]?[1]?["properties"]?["arguments"]?["properties"]?["corner"])
        #expect(corner["$ref"]?.stringValue == "#/$defs/tool0_Point")
        // For native function calling, references are inlined instead.
        let inlined = ChatRequestBuilder.inlined(try ChatRequestBuilder.schemaJSON(parameters))
        #expect(inlined["$defs"] == nil)
        #expect(inlined["properties"]?["corner"]?["properties"]?["x"]?["type"]?.stringValue == "integer")
    }

    @Test("After the last allowed round of tool calls, the model must answer: no tool is offered")
    func toolRounds() throws {
        let call = Transcript.Entry.toolCalls(
            Transcript.ToolCalls([
                Transcript.ToolCall(id: "c1", toolName: "clock_now", arguments: GeneratedContent(properties: [:]))
            ]))
        let output = Transcript.Entry.toolOutput(
            Transcript.ToolOutput(id: "c1", toolName: "clock_now", segments: [.text(Transcript.TextSegment(content: "09:00"))]))
        var configuration = ChatCompletionsConfiguration()
        configuration.maximumToolRounds = 1
        let built = try ChatRequestBuilder.build(
            Self.request([call, output], tools: Self.tools()), model: "m", configuration: configuration, stream: false)
        // The same format (and system message, for the server's prompt cache), with only the answer offered.
        #expect(built.shape == .guided(structured: false))
        let choices = try #require(built.body["response_format"]?["json_schema"]?["schema"]?["anyOf"]?.arrayValue)
        #expect(choices.count == 1)
        #expect(choices[0]["properties"]?["answer"] != nil)
        // The call and its output are in the conversation, as the model wrote the call.
        let messages = try #require(built.body["messages"]?.arrayValue)
        #expect(messages.map { $0["role"]?.stringValue } == ["system", "user", "assistant", "user"])
        #expect(messages[2]["content"]?.stringValue == #"{"tool":"clock_now","arguments":{}}"#)
        #expect(messages[3]["content"]?.stringValue?.contains("09:00") == true)
    }

    @Test("A round that only repeats an earlier round's call ends the rounds; a new call does not")
    func repeatedCall() throws {
        func call(_ id: String, _ query: String) -> [Transcript.Entry] {
            [
                .toolCalls(
                    Transcript.ToolCalls([
                        Transcript.ToolCall(id: id, toolName: "notes_search", arguments: GeneratedContent(properties: ["query": query]))
                    ])),
                .toolOutput(
                    Transcript.ToolOutput(id: id, toolName: "notes_search", segments: [.text(Transcript.TextSegment(content: "none"))])),
            ]
        }
        let configuration = ChatCompletionsConfiguration()
        func offered(_ entries: [Transcript.Entry]) throws -> Int {
            let built = try ChatRequestBuilder.build(
                Self.request(entries, tools: Self.tools()), model: "m", configuration: configuration, stream: false)
            return built.body["response_format"]?["json_schema"]?["schema"]?["anyOf"]?.arrayValue?.count ?? 0
        }
        let fresh = try offered(call("c1", "milk") + call("c2", "bread"))
        #expect(fresh > 1)
        #expect(try offered(call("c1", "milk") + call("c2", "milk")) == 1)
    }

    @Test("Native function calling: tools as functions, calls and outputs as tool_calls and tool messages")
    func native() throws {
        let call = Transcript.Entry.toolCalls(
            Transcript.ToolCalls([
                Transcript.ToolCall(id: "c1", toolName: "notes_add", arguments: GeneratedContent(properties: ["text": "milk"]))
            ]))
        let output = Transcript.Entry.toolOutput(
            Transcript.ToolOutput(id: "c1", toolName: "notes_add", segments: [.text(Transcript.TextSegment(content: "added"))]))
        var configuration = ChatCompletionsConfiguration()
        configuration.toolCalling = .native
        let built = try ChatRequestBuilder.build(
            Self.request([call, output], tools: Self.tools()), model: "m", configuration: configuration, stream: true)
        #expect(built.shape == .native)
        #expect(built.body["tools"]?[0]?["function"]?["name"]?.stringValue == "notes_add")
        #expect(built.body["response_format"] == nil)
        let messages = try #require(built.body["messages"]?.arrayValue)
        #expect(messages[2]["tool_calls"]?[0]?["id"]?.stringValue == "c1")
        #expect(messages[3]["role"]?.stringValue == "tool")
        #expect(messages[3]["tool_call_id"]?.stringValue == "c1")
    }

    @Test(
        "Sampling modes become the server's parameters",
        arguments: [
            (GenerationOptions(samplingMode: .greedy), ["temperature": JSONValue.double(0), "top_k": .int(1)]),
            (
                GenerationOptions(samplingMode: .random(top: 40, seed: 7), temperature: 0.7),
                ["temperature": .double(0.7), "top_k": .int(40), "seed": .int(7)]
            ),
            (
                GenerationOptions(samplingMode: .random(probabilityThreshold: 0.9), maximumResponseTokens: 64),
                ["top_p": .double(0.9), "max_tokens": .int(64)]
            ),
        ])
    func sampling(options: GenerationOptions, expected: [String: JSONValue]) {
        var body = JSONObject()
        ChatRequestBuilder.options(of: ChatRequest(Self.request(tools: [], options: options), configuration: .init()), into: &body)
        #expect(body == JSONObject(expected.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first }))
    }

    @Test(
        "A guided answer becomes a turn",
        arguments: [
            (#"{"tool":"notes_add","arguments":{"text":"milk"}}"#, "call notes_add {\"text\":\"milk\"}"),
            (#"{ "answer" : "It is nine." }"#, "text It is nine."),
        ])
    func guidedTurn(content: String, expected: String) throws {
        let turn = try ChatRequestBuilder.turn(content: content, toolCalls: [], shape: .guided(structured: false))
        switch turn {
        case .toolCalls(let calls): #expect("call \(calls[0].toolName) \(calls[0].arguments.jsonString)" == expected)
        case .text(let text): #expect("text \(text)" == expected)
        case .content: Issue.record("unexpected content")
        }
    }

    @Test(
        "A guided text answer cut at the response limit is the text so far",
        arguments: [
            (#"{"answer":"It is nine o'cl"#, "It is nine o'cl"), ("{\n  \"answer\" : \"Line one\\nLine tw", "Line one\nLine tw"),
            (#"{"answer":"caf\u00"#, "caf"), (#"{"answer":"a \"#, "a "),
        ])
    func salvaged(content: String, expected: String) throws {
        let turn = try ChatRequestBuilder.turn(content: content, toolCalls: [], shape: .guided(structured: false))
        #expect(turn == .text(expected))
    }

    @Test(
        "A guided call cut at the length limit keeps what was generated, closed",
        arguments: [
            (#"{"tool":"echo","arguments":{"text":"This is a test. This is a te"#, #"{"text":"This is a test. This is a te"}"#),
            ("{\n  \"tool\": \"notes_delete\",\n  \"arguments\": {\n    \"id\": \"1234567890", #"{"id":"1234567890"}"#),
            (#"{"tool":"notes_search","arguments":{"query":"milk","lim"#, #"{"query":"milk"}"#),
            (#"{"tool":"notes_search","arguments":{"query":"milk","limit":"#, #"{"query":"milk"}"#),
            (#"{"tool":"notes_search","arguments":{"query":"milk","#, #"{"query":"milk"}"#),
            (#"{"tool":"notes_add","arguments":{"tags":["a","b"#, #"{"tags":["a","b"]}"#),
            (#"{"tool":"notes_search","arguments":{"query":"milk","limit":tr"#, #"{"query":"milk"}"#),
            (#"{"tool":"notes_search","arguments":{"query":"milk","limit":1."#, #"{"query":"milk"}"#),
            (#"{"tool":"notes_search","arguments":{"query":"milk","limit":12"#, #"{"query":"milk","limit":12}"#),
        ])
    func cutCall(content: String, arguments: String) throws {
        let turn = try ChatRequestBuilder.turn(content: content, toolCalls: [], shape: .guided(structured: false))
        guard case .toolCalls(let calls) = turn else {
            Issue.record("not a call: \(turn)")
            return
        }
        #expect(calls.first?.arguments.jsonString == arguments)
    }

    @Test("An answer that is not what its shape needs is unreadable", arguments: ["not json", #"{"neither":1}"#, "[1]"])
    func unreadable(content: String) {
        #expect(throws: ChatRequestBuilder.Unreadable.self) {
            try ChatRequestBuilder.turn(content: content, toolCalls: [], shape: .guided(structured: false))
        }
    }

    @Test(
        "Portable guide patterns go to the server anchored, others not at all, and the bridge's length guides as minLength/maxLength",
        arguments: [
            (#"[\s\S]{1,100}"#, #"{"type":"string","minLength":1,"maxLength":100}"#),
            (#"[\s\S]{0,8}"#, #"{"type":"string","maxLength":8}"#),
            (#"[\s\S]{2,}"#, #"{"type":"string","minLength":2}"#),
            ("[a-z]+", #"{"type":"string","pattern":"^([a-z]+)$"}"#),
            ("[0-9]{3}-[0-9]{4}", #"{"type":"string","pattern":"^([0-9]{3}-[0-9]{4})$"}"#),
            ("(?:ab)+|c", #"{"type":"string","pattern":"^((?:ab)+|c)$"}"#),
            // Not portable: left out of the request (validation still applies it).
            (#"[\s\S]{5,2}"#, #"{"type":"string"}"#),
            (#"[\s\S]*(?:@)[\s\S]*"#, #"{"type":"string"}"#),
            (#"\d+"#, #"{"type":"string"}"#),
            ("[^x]+", #"{"type":"string"}"#),
            ("a.c", #"{"type":"string"}"#),
            ("(?=a)a", #"{"type":"string"}"#),
        ])
    func guidePatterns(_ pattern: String, _ expected: String) throws {
        let converted = ChatRequestBuilder.jsonSchemaPatterns(["type": "string", "pattern": .string(pattern)])
        #expect(try converted.jsonString() == expected)
        // A pattern on something that is not a string schema (a property named "pattern") stays.
        let property: JSONValue = ["type": "object", "properties": ["pattern": ["type": "string"]]]
        #expect(ChatRequestBuilder.jsonSchemaPatterns(property) == property)
    }

    @Test(
        "sendsEveryPattern sends the patterns the portable subset leaves out, in every shape",
        arguments: [
            ChatCompletionsConfiguration.ToolCalling.guided, .native,
        ])
    func everyPattern(_ calling: ChatCompletionsConfiguration.ToolCalling) throws {
        let json =
            #"{"type":"object","title":"Code","properties":{"code":{"type":"string","pattern":"[^x]+"}},"required":["code"],"additionalProperties":false,"x-order":["code"]}"#
        let parameters = try JSONDecoder().decode(GenerationSchema.self, from: Data(json.utf8))
        let tools = [LanguageModelToolDescription(name: "check", description: "Checks a code.", parameters: parameters)]
        var configuration = ChatCompletionsConfiguration(toolCalling: calling)
        let portable = try ChatRequestBuilder.build(Self.request(tools: tools), model: "m", configuration: configuration, stream: true)
        #expect(try !portable.body.jsonString().contains("[^x]+"))
        configuration.sendsEveryPattern = true
        let every = try ChatRequestBuilder.build(Self.request(tools: tools), model: "m", configuration: configuration, stream: true)
        #expect(try every.body.jsonString().contains(#"^([^x]+)$"#))
    }

    @Test("A streamed answer is reported at every change up to 16 KiB, then at each growth of an eighth")
    func partialReportsThin() {
        #expect(!ChatCompletionsModel.reportsPartial(length: 0, reported: 0))
        #expect(ChatCompletionsModel.reportsPartial(length: 1, reported: 0))
        #expect(!ChatCompletionsModel.reportsPartial(length: 100, reported: 100))
        #expect(ChatCompletionsModel.reportsPartial(length: 16 << 10, reported: (16 << 10) - 1))
        #expect(!ChatCompletionsModel.reportsPartial(length: 80_001, reported: 80_000))
        #expect(ChatCompletionsModel.reportsPartial(length: 90_000, reported: 80_000))
        // A 4 MiB answer in 1-byte events: a few dozen reports past 16 KiB, not four million.
        var reported = 16 << 10
        var reports = 0
        for length in (16 << 10)...(4 << 20) where ChatCompletionsModel.reportsPartial(length: length, reported: reported) {
            reports += 1
            reported = length
        }
        #expect(reports < 50)
    }

    /// A partial answer case: the content so far, how it is read, and what is shown (`nil`: nothing).
    struct PartialCase: Sendable, CustomTestStringConvertible {
        var content: String
        var shape: ChatRequestBuilder.AnswerShape
        var callsStarted = false
        var shown: String?
        var testDescription: String { "\(shape) \(content) → \(shown ?? "nothing")" }
    }

    static let partialCases: [PartialCase] = [
        PartialCase(content: "", shape: .text, shown: nil),
        PartialCase(content: "Hel", shape: .text, shown: #""Hel""#),
        PartialCase(content: "Hel", shape: .native, shown: #""Hel""#),
        PartialCase(content: "Let me check", shape: .native, callsStarted: true, shown: nil),
        PartialCase(content: #"{"title":"Sh"#, shape: .content, shown: #"{"title":"Sh"}"#),
        PartialCase(content: #"{"ans"#, shape: .guided(structured: false), shown: nil),
        PartialCase(content: #"{"answer":"It is no"#, shape: .guided(structured: false), shown: #""It is no""#),
        PartialCase(content: #"{"answer":"#, shape: .guided(structured: false), shown: nil),
        PartialCase(content: #"{"tool":"clock_now","arguments":{"#, shape: .guided(structured: false), shown: nil),
        PartialCase(content: #"{"answer":{"title":"Sh"#, shape: .guided(structured: true), shown: #"{"title":"Sh"}"#),
        PartialCase(content: #"{"answer":12"#, shape: .guided(structured: false), shown: nil),
    ]

    @Test("A streamed answer so far is shown as its shape reads it; a tool call never is", arguments: partialCases)
    func partialAnswer(_ row: PartialCase) {
        let partial = ChatRequestBuilder.partialAnswer(content: row.content, shape: row.shape, callsStarted: row.callsStarted)
        #expect(partial?.jsonString == row.shown)
    }

    @Test("A streamed answer: text deltas joined, tool calls assembled from their fragments, [DONE] ends it")
    func streamed() throws {
        var stream = StreamedCompletion()
        let events = [
            #"{"choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"}}]}"#,
            #"{"choices":[{"index":0,"delta":{"content":"lo"}}]}"#,
            #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"notes_","arguments":"{\"te"}}]}}]}"#,
            #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"add","arguments":"xt\":\"milk\"}"}}]}}]}"#,
            #"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#,
        ]
        for event in events { #expect(try stream.take(Array(event.utf8)) == false) }
        #expect(try stream.take(Array("[DONE]".utf8)))
        #expect(stream.completion.content == "Hello")
        #expect(stream.completion.finishReason == "tool_calls")
        #expect(stream.completion.toolCalls.count == 1)
        #expect(stream.completion.toolCalls.first?.name == "notes_add")
        #expect(stream.completion.toolCalls.first?.arguments == #"{"text":"milk"}"#)
    }

    @Test("llama.cpp's context overflow is Apple's exceededContextWindowSize, with Apple's wording")
    func overflow() throws {
        let body =
            #"{"error":{"code":400,"message":"the request exceeds the available context size","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}"#
        let error = ChatCompletionsModel.failure(status: 400, body: Array(body.utf8))
        guard
            case LanguageModelSession.GenerationError.exceededContextWindowSize(let context)? = error
                as? LanguageModelSession.GenerationError
        else {
            Issue.record("not an overflow: \(error)")
            return
        }
        #expect(context.debugDescription == "Content contains 5000 tokens, which exceeds the maximum allowed context size of 4096.")
    }

    @Test(
        "Error statuses",
        arguments: [
            (401, #"{"error":{"message":"Invalid API key"}}"#, ChatCompletionsError.unauthorized),
            (404, #"{"error":{"message":"The model `gpt-9` does not exist"}}"#, .unknownModel),
            (500, "Internal Server Error", .httpStatus),
        ])
    func statuses(status: Int, body: String, expected: ChatCompletionsError) {
        let error = ChatCompletionsModel.failure(status: status, body: Array(body.utf8))
        #expect((error as? ChatCompletionsError) == expected, "\(error)")
    }

    @Test("A 429 is Apple's rateLimited")
    func rateLimited() {
        let error = ChatCompletionsModel.failure(status: 429, body: Array(#"{"error":{"message":"slow down"}}"#.utf8))
        guard case LanguageModelSession.GenerationError.rateLimited? = error as? LanguageModelSession.GenerationError else {
            Issue.record("not rateLimited: \(error)")
            return
        }
    }

    @Test(
        "The API's base URL",
        arguments: [
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080/v1"), ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/v1"),
            ("https://api.example.com/v1", "https://api.example.com/v1"), ("http://localhost:11434/v1/", "http://localhost:11434/v1"),
        ])
    func base(url: String, expected: String) throws {
        let base = try ChatCompletionsModel.apiBase(try #require(URL(string: url)), configuration: .init())
        #expect(base.absoluteString == expected)
    }

    @Test("An API key is not sent over plain http:// to another machine; other schemes are refused")
    func insecure() throws {
        let configuration = ChatCompletionsConfiguration(apiKey: { "sk-secret" })
        let remote = try #require(URL(string: "http://models.example.com/v1"))
        #expect(throws: ChatCompletionsError.insecureCredentials) { try ChatCompletionsModel.apiBase(remote, configuration: configuration) }
        let local = try #require(URL(string: "http://127.0.0.1:8080"))
        #expect(throws: Never.self) { try ChatCompletionsModel.apiBase(local, configuration: configuration) }
        // A name that only starts like a loopback address is another machine.
        let lookalike = try #require(URL(string: "http://127.models.example.com/v1"))
        #expect(throws: ChatCompletionsError.insecureCredentials) {
            try ChatCompletionsModel.apiBase(lookalike, configuration: configuration)
        }
        let ftp = try #require(URL(string: "ftp://models.example.com"))
        #expect(throws: ChatCompletionsError.invalidConfiguration) { try ChatCompletionsModel.apiBase(ftp, configuration: .init()) }
    }
}
