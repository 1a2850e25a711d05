import Foundation
import JSONCore
import OnDeviceMCPTestSupport
import PortableFoundationModels
import Testing

@testable import ChatCompletions

/// A model that loops, against a scripted server that streams the loop for as long as it is
/// read: the turn ends with ``ChatCompletionsError/degenerateOutput`` soon after the loop
/// starts, and the request's connection is closed.
@Suite("Degenerate output against a scripted server")
struct DegenerateOutputTests {
    /// One event of a streamed answer that adds `text` to the content.
    static func event(_ text: String) -> Data {
        let chunk: JSONValue = ["choices": [["index": 0, "delta": ["content": .string(text)], "finish_reason": .null]]]
        return Data(("data: " + ((try? chunk.jsonString()) ?? "") + "\n\n").utf8)
    }

    /// A server that streams `lead` in pieces, then `unit` in pieces, over and over, forever.
    static func looping(lead: [String], unit: [String]) -> ScriptedExchanger.Answer {
        .endless(status: 200, contentType: "text/event-stream") { index in
            index < lead.count ? event(lead[index]) : event(unit[(index - lead.count) % unit.count])
        }
    }

    /// The loop a new user saw.
    static let aesbw = ["[a", "es", "bw", "];", " "]

    /// The way a turn runs: a 27 session on the model, or a 26 session on its backend.
    enum Way: String, CaseIterable, Sendable {
        case languageModel
        case backend

        func session(_ model: ChatCompletionsModel, tools: [any Tool] = []) -> LanguageModelSession {
            switch self {
            case .languageModel: LanguageModelSession(model: model, tools: tools)
            case .backend: LanguageModelSession(model: model.systemLanguageModel, tools: tools)
            }
        }
    }

    /// Runs `prompt` in `session` under a hang guard; the error it ends with.
    static func failure(of session: LanguageModelSession, _ prompt: String) async throws -> (any Error)? {
        try await withHangGuard(.seconds(60), "the looping turn") { () -> (any Error)? in
            do {
                _ = try await session.respond(to: prompt)
                return nil
            } catch {
                return error
            }
        }
    }

    @Test(
        "A text answer that loops forever ends with degenerateOutput after a few repeats, and its connection is closed",
        arguments: Way.allCases)
    func textLoop(_ way: Way) async throws {
        let (model, exchanger) = try ScriptedServerTests.model([Self.looping(lead: ["The ", "tags ", "are: "], unit: Self.aesbw)])
        let session = way.session(model)
        // As MCPSessionProvider's sessions do: a failed turn leaves nothing in the transcript
        // (the 26 backend returns no turn at all when it fails).
        if way == .languageModel { session.transcriptErrorHandlingPolicy = .revertTranscript }
        let error = try await Self.failure(of: session, "Tag this note.")
        let failure = try #require(error as? ChatCompletionsError, "\(String(describing: error))")
        #expect(failure == .degenerateOutput)
        let output = try #require(failure.degeneration)
        #expect(output.kind == .repeatedText)
        #expect(output.part == .answer)
        #expect(output.unit == "[aesbw]; ")
        #expect("\(failure)".hasPrefix("the model's answer was cut after "))
        #expect("\(failure)".hasSuffix(#": it repeated "[aesbw]; " \#(output.repeats) times in a row"#))
        // Read no further than the loop's first ten units (and what the reader had asked for).
        #expect(exchanger.chunksServed < 3 + 10 * Self.aesbw.count, "\(exchanger.chunksServed) chunks read")
        #expect(exchanger.closes == 1)
        // The loop is not an answer in the session's transcript.
        #expect(!session.transcript.contains { entry in if case .response = entry { true } else { false } })
    }

    @Test("A guided step that loops inside its answer string ends with degenerateOutput; its connection is closed", arguments: Way.allCases)
    func guidedLoop(_ way: Way) async throws {
        let (model, exchanger) = try ScriptedServerTests.model([
            Self.looping(lead: [#"{"answer": "#, #""It is "#, "10:00 ", "in ", "Tokyo. "], unit: ["Tokyo ", "is ", "nice. "])
        ])
        let session = way.session(model, tools: [RealModelTests.Echo()])
        let error = try await Self.failure(of: session, "What time is it in Tokyo?")
        let failure = try #require(error as? ChatCompletionsError, "\(String(describing: error))")
        #expect(failure == .degenerateOutput)
        #expect(failure.degeneration?.unit == "Tokyo is nice. ")
        #expect(exchanger.chunksServed < 5 + 3 * 12, "\(exchanger.chunksServed) chunks read")
        #expect(exchanger.closes == 1)
    }

    @Test("streamResponse ends with degenerateOutput; the snapshots before the cut never hold the whole loop")
    func streamedLoop() async throws {
        let (model, exchanger) = try ScriptedServerTests.model([Self.looping(lead: ["Tags: "], unit: Self.aesbw)])
        let session = LanguageModelSession(model: model)
        let outcome = try await withHangGuard(.seconds(60), "the looping stream") { () -> (last: String, error: (any Error)?) in
            var last = ""
            do {
                for try await snapshot in session.streamResponse(to: "Tag this note.") { last = snapshot.content }
                return (last, nil)
            } catch {
                return (last, error)
            }
        }
        #expect((outcome.error as? ChatCompletionsError) == .degenerateOutput)
        #expect(outcome.last.count < 200, "\(outcome.last)")
        #expect(exchanger.closes == 1)
    }

    @Test("An answer that came whole (not streamed) with a loop in it is degenerateOutput too")
    func wholeLoop() async throws {
        let text = "Tags: " + String(repeating: "[aesbw]; ", count: 100)
        let body: JSONValue = [
            "choices": [["index": 0, "message": ["role": "assistant", "content": .string(text)], "finish_reason": "length"]]
        ]
        let (model, _) = try ScriptedServerTests.model([.respond(status: 200, contentType: "application/json", body: try body.jsonString())]
        )
        let error = try await Self.failure(of: LanguageModelSession(model: model), "Tag this note.")
        #expect((error as? ChatCompletionsError) == .degenerateOutput)
    }

    // MARK: The retry

    /// A model on llama.cpp (which gets the repetition controls, and so the retry) over `answers`.
    static func llamaCppModel(
        _ answers: [ScriptedExchanger.Answer], configuration: ChatCompletionsConfiguration = .init()
    ) throws -> (ChatCompletionsModel, ScriptedExchanger) {
        let exchanger = ScriptedExchanger(answers)
        let base = try #require(URL(string: "http://127.0.0.1:9/v1"))
        let model = ChatCompletionsModel(
            baseURL: base, model: "m", contextSize: 4096, tokenizer: nil, configuration: configuration, server: .llamaCpp,
            exchanger: exchanger)
        return (model, exchanger)
    }

    /// A streamed answer of `pieces`, finished.
    static func streamed(_ pieces: [String]) -> ScriptedExchanger.Answer {
        let events = pieces.enumerated().map { index, piece in
            String(decoding: (try? ScriptedServerTests.delta(piece, finish: index == pieces.count - 1)) ?? Data(), as: UTF8.self)
        }
        return .respond(status: 200, contentType: "text/event-stream", body: events.joined())
    }

    @Test(
        "An answer cut as a loop is asked once more with repeat_penalty; the retry's answer is the turn's, and the loop is gone",
        arguments: Way.allCases)
    func loopRetried(_ way: Way) async throws {
        let metrics = Recorder<ChatCompletionsRequestMetrics>()
        var configuration = ChatCompletionsConfiguration()
        configuration.requestMetrics = { metrics.append($0) }
        let (model, exchanger) = try Self.llamaCppModel(
            [Self.looping(lead: ["The ", "tags ", "are: "], unit: Self.aesbw), Self.streamed(["Tags: ", "travel, ", "Lisbon."])],
            configuration: configuration)
        let session = way.session(model)
        let answer = try await withHangGuard(.seconds(60), "the retried turn") {
            try await session.respond(to: "Tag this note.").content
        }
        #expect(answer == "Tags: travel, Lisbon.")
        #expect(exchanger.requests.count == 2)
        #expect(try exchanger.body(0)["repeat_penalty"] == nil)
        #expect(try exchanger.body(1)["repeat_penalty"]?.doubleValue == 1.1)
        #expect(exchanger.closes == 2)
        let responses = session.transcript.compactMap { entry -> String? in
            guard case .response(let response) = entry else { return nil }
            return response.segments.compactMap { segment in if case .text(let text) = segment { text.content } else { nil } }.joined()
        }
        #expect(responses == ["Tags: travel, Lisbon."])
        let retried = try #require(metrics.values.last?.retriedAfter)
        #expect(retried.unit == "[aesbw]; ")
    }

    @Test("A guided answer cut as a loop is asked again; streamed, the retry's answer replaces the cut one")
    func guidedLoopRetriedStreamed() async throws {
        let (model, exchanger) = try Self.llamaCppModel([
            Self.looping(lead: [#"{"answer": "#, #""It is "#, "10:00 ", "in ", "Tokyo. "], unit: ["Tokyo ", "is ", "nice. "]),
            Self.streamed([#"{"answer": "#, #""It is 10:00 in Tokyo."}"#]),
        ])
        let session = LanguageModelSession(model: model, tools: [RealModelTests.Echo()])
        let snapshots = try await withHangGuard(.seconds(60), "the retried stream") { () -> [String] in
            var snapshots: [String] = []
            for try await snapshot in session.streamResponse(to: "What time is it in Tokyo?") { snapshots.append(snapshot.content) }
            return snapshots
        }
        #expect(snapshots.last == "It is 10:00 in Tokyo.")
        // The cut answer was shown while it streamed, and then replaced, not continued.
        #expect(snapshots.contains { $0.contains("nice") })
        #expect(exchanger.requests.count == 2)
        #expect(try exchanger.body(1)["repeat_penalty"]?.doubleValue == 1.1)
    }

    @Test("A retry that loops too ends the turn with degenerateOutput, after two requests", arguments: Way.allCases)
    func retryLoopsToo(_ way: Way) async throws {
        let loop = Self.looping(lead: ["Tags: "], unit: Self.aesbw)
        let (model, exchanger) = try Self.llamaCppModel([loop, loop])
        let error = try await Self.failure(of: way.session(model), "Tag this note.")
        #expect((error as? ChatCompletionsError) == .degenerateOutput)
        #expect(exchanger.requests.count == 2)
        #expect(exchanger.closes == 2)
    }

    @Test("Without a retry penalty a cut answer fails the turn at once")
    func noRetryWithoutPenalty() async throws {
        var configuration = ChatCompletionsConfiguration()
        configuration.repetitionControls.retryRepeatPenalty = nil
        let loop = Self.looping(lead: ["Tags: "], unit: Self.aesbw)
        let (model, exchanger) = try Self.llamaCppModel([loop, loop], configuration: configuration)
        let error = try await Self.failure(of: LanguageModelSession(model: model), "Tag this note.")
        #expect((error as? ChatCompletionsError) == .degenerateOutput)
        #expect(exchanger.requests.count == 1)
    }

    @Test("With detectsDegenerateOutput off the loop is read on, to the response's byte limit")
    func detectionOff() async throws {
        var configuration = ChatCompletionsConfiguration()
        configuration.detectsDegenerateOutput = false
        configuration.maximumResponseBytes = 16 << 10
        let (model, exchanger) = try ScriptedServerTests.model(
            [Self.looping(lead: ["Tags: "], unit: Self.aesbw)], configuration: configuration)
        let error = try await Self.failure(of: LanguageModelSession(model: model), "Tag this note.")
        let failure = try #require(error as? ChatCompletionsError)
        #expect(failure == .invalidResponse)
        #expect(failure.detail.contains("larger than"))
        #expect(exchanger.chunksServed > 100)
        #expect(exchanger.closes == 1)
    }

    @Test("Reasoning that loops is cut as reasoning")
    func reasoningLoop() async throws {
        let (model, exchanger) = try ScriptedServerTests.model([
            .endless(status: 200, contentType: "text/event-stream") { _ in
                let chunk: JSONValue = ["choices": [["index": 0, "delta": ["reasoning_content": "Wait, "], "finish_reason": .null]]]
                return Data(("data: " + ((try? chunk.jsonString()) ?? "") + "\n\n").utf8)
            }
        ])
        let error = try await Self.failure(of: LanguageModelSession(model: model), "Think.")
        let failure = try #require(error as? ChatCompletionsError)
        #expect(failure.degeneration?.part == .reasoning)
        #expect(failure.detail.hasPrefix("the model's reasoning was cut"))
        #expect(exchanger.closes == 1)
    }
}
