#if !canImport(FoundationModels)
import Foundation
import PortableFoundationModels
import Testing

/// A backend whose answer the test writes piece by piece: each `feed` reports the text so far,
/// `finish` ends the answer. Records whether it was cancelled.
final class FedBackend: LanguageModelBackend, @unchecked Sendable {
    // Safety: `pieces`, `requests` and `cancelled` are touched only with `lock` held.
    private let lock = NSLock()
    private let (pieces, feeder) = AsyncStream.makeStream(of: String?.self)
    private var requestCount = 0
    private var wasCancelled = false
    /// Ends when the backend's request is cancelled.
    let (cancellation, cancellationEnd) = AsyncStream.makeStream(of: Void.self)

    var requests: Int { lock.withLock { requestCount } }
    var cancelled: Bool { lock.withLock { wasCancelled } }

    func feed(_ piece: String) { feeder.yield(piece) }
    func finish() { feeder.yield(nil) }

    func respond(to request: LanguageModelRequest) async throws -> LanguageModelTurn {
        try await respond(to: request) { _ in }
    }

    func respond(
        to request: LanguageModelRequest, partialAnswer: @escaping @Sendable (GeneratedContent) -> Void
    ) async throws -> LanguageModelTurn {
        lock.withLock { requestCount += 1 }
        var text = ""
        for await piece in pieces {
            guard let piece else { return .text(text) }
            text += piece
            partialAnswer(GeneratedContent(text))
        }
        // The stream of pieces ends only when the task is cancelled.
        lock.withLock { wasCancelled = true }
        cancellationEnd.finish()
        throw CancellationError()
    }
}

@Suite("streamResponse: snapshots as the backend generates")
struct ResponseStreamTests {
    @Test("Each piece the backend reports is a snapshot before the answer ends; the last snapshot is the whole answer")
    func snapshotsArriveAsGenerated() async throws {
        let backend = FedBackend()
        let session = LanguageModelSession(model: SystemLanguageModel(backend: backend))
        var iterator = session.streamResponse(to: "Hi").makeAsyncIterator()
        backend.feed("Hello")
        // The answer has not ended, so this snapshot can only be the partial one.
        #expect(try await iterator.next()?.content == "Hello")
        #expect(session.isResponding)
        backend.feed(", world")
        #expect(try await iterator.next()?.content == "Hello, world")
        backend.finish()
        let last = try #require(try await iterator.next())
        #expect(last.content == "Hello, world")
        #expect(last.rawContent.isComplete)
        #expect(try await iterator.next() == nil)
        #expect(!session.isResponding)
        guard case .response? = session.transcript.last else {
            Issue.record("the streamed answer is not in the transcript")
            return
        }
    }

    @Test("A scripted model's streamed text gives growing snapshots ending with the answer")
    func scriptedStreamedText() async throws {
        let script = ScriptedLanguageModel([.streamedText(["The ", "sky ", "is ", "blue."])])
        let session = LanguageModelSession(model: script.model)
        var snapshots: [String] = []
        for try await snapshot in session.streamResponse(to: "Colour?") { snapshots.append(snapshot.content) }
        let last = try #require(snapshots.last)
        #expect(last == "The sky is blue.")
        // A slow reader may miss some (only the newest waits), never see them out of order.
        for (earlier, later) in zip(snapshots, snapshots.dropFirst()) { #expect(later.hasPrefix(earlier)) }
    }

    /// A note, streamed as JSON.
    struct Note: Generable, Equatable {
        var title: String
        var body: String

        static var generationSchema: GenerationSchema {
            GenerationSchema(
                type: Note.self, description: "A note",
                properties: [
                    GenerationSchema.Property(name: "title", type: String.self),
                    GenerationSchema.Property(name: "body", type: String.self),
                ])
        }

        init(_ content: GeneratedContent) throws {
            title = try content.value(forProperty: "title")
            body = try content.value(forProperty: "body")
        }

        var generatedContent: GeneratedContent { GeneratedContent(properties: ["title": title, "body": body]) }
    }

    @Test("Structured snapshots skip prefixes the type cannot hold yet, then decode; the last is complete")
    func structuredSnapshots() async throws {
        let script = ScriptedLanguageModel([.streamedJSON([#"{"title":"Sh"#, #"opping","bo"#, #"dy":"eggs"#, #", milk"}"#])])
        let session = LanguageModelSession(model: script.model)
        var snapshots: [Note] = []
        var raws: [GeneratedContent] = []
        for try await snapshot in session.streamResponse(to: "A note", generating: Note.self) {
            snapshots.append(snapshot.content)
            raws.append(snapshot.rawContent)
        }
        #expect(snapshots.last == (try Note(GeneratedContent(json: #"{"title":"Shopping","body":"eggs, milk"}"#))))
        #expect(raws.last?.isComplete == true)
        // Every snapshot had both properties (a prefix without "body" cannot be a Note).
        #expect(snapshots.allSatisfy { $0.title.hasPrefix("Sh") })
    }

    @Test("collect() after reading part of the stream returns the same answer, from the same request")
    func collectJoinsTheRunningGeneration() async throws {
        let backend = FedBackend()
        let session = LanguageModelSession(model: SystemLanguageModel(backend: backend))
        let stream = session.streamResponse(to: "Hi")
        var iterator = stream.makeAsyncIterator()
        backend.feed("Hel")
        #expect(try await iterator.next()?.content == "Hel")
        backend.feed("lo")
        backend.finish()
        let response = try await stream.collect()
        #expect(response.content == "Hello")
        #expect(response.transcriptEntries.count == 2)
        // Collected again after the end: the same outcome, no new request.
        #expect(try await stream.collect().content == "Hello")
        #expect(backend.requests == 1)
    }

    @Test("Readers that start at once share one generation: the model is asked once")
    func concurrentReadersShareOneGeneration() async throws {
        let backend = FedBackend()
        let session = LanguageModelSession(model: SystemLanguageModel(backend: backend))
        let stream = session.streamResponse(to: "Hi")
        backend.feed("Hello")
        backend.finish()
        let answers = try await withThrowingTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var last: String?
                    for try await snapshot in stream { last = snapshot.content }
                    return last
                }
            }
            var answers: [String?] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
        #expect(answers == Array(repeating: "Hello", count: 8))
        #expect(backend.requests == 1)
    }

    @Test("A stream nobody reads asks the model nothing")
    func lazy() async throws {
        let script = ScriptedLanguageModel([.text("never")])
        let session = LanguageModelSession(model: script.model)
        _ = session.streamResponse(to: "Hi")
        #expect(script.requests.isEmpty)
        #expect(!session.isResponding)
    }

    @Test("A reader that stops reading before the end cancels the generation", .timeLimit(.minutes(1)))
    func leavingCancels() async throws {
        let backend = FedBackend()
        let session = LanguageModelSession(model: SystemLanguageModel(backend: backend))
        backend.feed("partial")
        for try await snapshot in session.streamResponse(to: "Hi") {
            #expect(snapshot.content == "partial")
            break
        }
        // The backend sees its task cancelled.
        for await _ in backend.cancellation {}
        #expect(backend.cancelled)
    }

    @Test("A failed generation ends every reader with the backend's error")
    func failure() async throws {
        struct Broken: Error {}
        let script = ScriptedLanguageModel([.failure(Broken())])
        let session = LanguageModelSession(model: script.model)
        let stream = session.streamResponse(to: "Hi")
        await #expect(throws: Broken.self) { for try await _ in stream {} }
        await #expect(throws: Broken.self) { _ = try await stream.collect() }
    }
}
#endif
