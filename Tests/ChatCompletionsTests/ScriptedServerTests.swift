import Foundation
import HTTPClientCore
import JSONCore
import OnDeviceMCPTestSupport
import PortableFoundationModels
import Testing

@testable import ChatCompletions

@Suite("The chat-completions backend against a scripted server")
struct ScriptedServerTests {
    static func model(
        _ answers: [ScriptedExchanger.Answer], configuration: ChatCompletionsConfiguration = .init()
    ) throws -> (ChatCompletionsModel, ScriptedExchanger) {
        let exchanger = ScriptedExchanger(answers)
        let base = try #require(URL(string: "http://127.0.0.1:9/v1"))
        return (
            ChatCompletionsModel(
                baseURL: base, model: "m", contextSize: 4096, tokenizer: nil, configuration: configuration, exchanger: exchanger), exchanger
        )
    }

    static func events(_ chunks: [String]) -> String {
        chunks.map { "data: \($0)\n\n" }.joined() + "data: [DONE]\n\n"
    }

    /// One server-sent event of a streamed answer that adds `text` to the content.
    static func delta(_ text: String, finish: Bool = false) throws -> Data {
        let chunk: JSONValue = [
            "choices": [["index": 0, "delta": ["content": .string(text)], "finish_reason": finish ? "stop" : .null]]
        ]
        return Data(("data: " + (try chunk.jsonString()) + "\n\n" + (finish ? "data: [DONE]\n\n" : "")).utf8)
    }

    @Test("streamResponse shows the answer as the server streams it, event by event")
    func streamedSnapshots() async throws {
        let (body, feed) = AsyncThrowingStream<Data, any Error>.makeStream()
        let (model, _) = try Self.model([.fed(status: 200, contentType: "text/event-stream", body: body)])
        let session = LanguageModelSession(model: model.systemLanguageModel)
        var iterator = session.streamResponse(to: "Hi").makeAsyncIterator()
        feed.yield(try Self.delta("Hello"))
        // The stream has not ended: this snapshot can only be the partial answer.
        #expect(try await iterator.next()?.content == "Hello")
        feed.yield(try Self.delta(", world", finish: true))
        feed.finish()
        var last = ""
        while let snapshot = try await iterator.next() { last = snapshot.content }
        #expect(last == "Hello, world")
    }

    @Test("A guided step shows its answer as it grows, and never a tool call")
    func guidedSnapshots() async throws {
        let (callBody, callFeed) = AsyncThrowingStream<Data, any Error>.makeStream()
        let (answerBody, answerFeed) = AsyncThrowingStream<Data, any Error>.makeStream()
        let (model, exchanger) = try Self.model([
            .fed(status: 200, contentType: "text/event-stream", body: callBody),
            .fed(status: 200, contentType: "text/event-stream", body: answerBody),
        ])
        let echo = RealModelTests.Echo()
        let session = LanguageModelSession(model: model.systemLanguageModel, tools: [echo])
        var iterator = session.streamResponse(to: "Say hi").makeAsyncIterator()
        callFeed.yield(try Self.delta(#"{"tool":"echo","argu"#))
        callFeed.yield(try Self.delta(#"ments":{"text":"hi"}}"#, finish: true))
        callFeed.finish()
        answerFeed.yield(try Self.delta(#"{"answer":"The tool s"#))
        // Had the call been shown, it would come first; the first snapshot is the answer's prefix.
        #expect(try await iterator.next()?.content == "The tool s")
        answerFeed.yield(try Self.delta(#"aid hi."}"#, finish: true))
        answerFeed.finish()
        var last = ""
        while let snapshot = try await iterator.next() { last = snapshot.content }
        #expect(last == "The tool said hi.")
        #expect(exchanger.requests.count == 2)
    }

    @Test("A streamed answer becomes the session's response; the request names the model and streams")
    func streamedAnswer() async throws {
        let (model, exchanger) = try Self.model([
            .respond(
                status: 200, contentType: "text/event-stream",
                body: Self.events([
                    #"{"choices":[{"index":0,"delta":{"content":"Hello"}}]}"#,
                    #"{"choices":[{"index":0,"delta":{"content":", world"},"finish_reason":"stop"}]}"#,
                ]))
        ])
        let session = LanguageModelSession(model: model.systemLanguageModel)
        let answer = try await session.respond(to: "Hi").content
        #expect(answer == "Hello, world")
        let request = try #require(exchanger.requests.first)
        #expect(request.url.absoluteString == "http://127.0.0.1:9/v1/chat/completions")
        let body = try JSONValue(parsing: try #require(request.body))
        #expect(body["model"]?.stringValue == "m")
        #expect(body["stream"]?.boolValue == true)
    }

    @Test("A refusal is Apple's refusal, and its explanation is the model's text")
    func refusal() async throws {
        let (model, _) = try Self.model([
            .respond(
                status: 200, contentType: "application/json",
                body:
                    #"{"choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]}"#
            )
        ])
        let session = LanguageModelSession(model: model.systemLanguageModel)
        do {
            _ = try await session.respond(to: "Something bad")
            Issue.record("no refusal")
        } catch LanguageModelSession.GenerationError.refusal(let refusal, _) {
            let explanation = try await refusal.explanation.content
            #expect(explanation == "I can't help with that.")
        }
    }

    @Test("An error status in the middle of a session is the server's error")
    func httpError() async throws {
        let (model, _) = try Self.model([
            .respond(status: 503, contentType: "application/json", body: #"{"error":{"message":"Loading model"}}"#)
        ])
        let session = LanguageModelSession(model: model.systemLanguageModel)
        let error = await #expect(throws: ChatCompletionsError.self) { _ = try await session.respond(to: "Hi") }
        #expect(error == .httpStatus)
        #expect(error?.status == 503)
        #expect(error.map { "\($0)" }?.contains("Loading model") == true)
    }

    @Test("A server that goes quiet mid-answer fails the turn at the idle timeout")
    func idle() async throws {
        var configuration = ChatCompletionsConfiguration()
        configuration.idleTimeout = .milliseconds(200)
        let (model, _) = try Self.model(
            [
                .hang(
                    status: 200, contentType: "text/event-stream",
                    first: #"data: {"choices":[{"index":0,"delta":{"content":"Hel"}}]}"# + "\n\n")
            ],
            configuration: configuration)
        let session = LanguageModelSession(model: model.systemLanguageModel)
        let error = try await withHangGuard(.seconds(30), "the idle timeout") {
            await #expect(throws: ChatCompletionsError.self) { _ = try await session.respond(to: "Hi") }
        }
        #expect(error == .timedOut)
    }

    @Test("A stream that ends before the model finished is an error, not a short answer")
    func truncated() async throws {
        let (model, _) = try Self.model([
            .respond(
                status: 200, contentType: "text/event-stream",
                body: "data: " + #"{"choices":[{"index":0,"delta":{"content":"Hel"}}]}"# + "\n\n")
        ])
        let error = await #expect(throws: ChatCompletionsError.self) {
            _ = try await LanguageModelSession(model: model.systemLanguageModel).respond(to: "Hi")
        }
        #expect(error == .invalidResponse)
    }

    @Test("The server's overflow mid-session is exceededContextWindowSize")
    func overflow() async throws {
        let (model, _) = try Self.model([
            .respond(
                status: 400, contentType: "application/json",
                body:
                    #"{"error":{"code":400,"message":"request exceeds the available context size","type":"exceed_context_size_error","n_prompt_tokens":4200,"n_ctx":4096}}"#
            )
        ])
        do {
            _ = try await LanguageModelSession(model: model.systemLanguageModel).respond(to: "Hi")
            Issue.record("no overflow")
        } catch LanguageModelSession.GenerationError.exceededContextWindowSize(let context) {
            #expect(context.debugDescription.contains("4200 tokens"))
        }
    }
}
