import Testing

@testable import MCP

/// Frames every line of `chunks`, fed one after another, and the last line at end of input.
private func frames(_ chunks: [[UInt8]], limit: Int = LineFramer.defaultMaximumFrameLength) -> [String] {
    var framer = LineFramer(maximumFrameLength: limit)
    var result: [String] = []
    func record(_ frame: LineFramer.Frame) {
        switch frame {
        case .line(let bytes): result.append(String(decoding: bytes, as: UTF8.self))
        case .oversized: result.append("<oversized>")
        }
    }
    for chunk in chunks {
        framer.append(chunk)
        while let frame = framer.next() { record(frame) }
    }
    if let last = framer.finish() { record(last) }
    return result
}

private func frames(_ text: String, limit: Int = LineFramer.defaultMaximumFrameLength) -> [String] {
    frames([Array(text.utf8)], limit: limit)
}

/// A named input for parameterized tests, so the test report reads as a sentence.
struct FramingCase: Sendable, CustomTestStringConvertible {
    var name: String
    var input: String
    var limit: Int = LineFramer.defaultMaximumFrameLength
    var expected: [String]
    var testDescription: String { name }
}

/// A split of one input into two chunks at a given byte offset.
struct SplitPoint: Sendable, CustomTestStringConvertible {
    var offset: Int
    var testDescription: String { "split after byte \(offset)" }
}

@Suite("Line framer")
struct LineFramerTests {
    static let sample = "{\"a\":1}\r\n\n  \n{\"b\":\"x y\"}\n{\"c\":[1,2,3]}\r\n"
    static let sampleLines = ["{\"a\":1}", "{\"b\":\"x y\"}", "{\"c\":[1,2,3]}"]

    @Test(
        "A stream split into two chunks yields the same lines wherever it is split",
        arguments: (0...sample.utf8.count).map(SplitPoint.init))
    func splitAnywhere(_ split: SplitPoint) {
        let bytes = Array(Self.sample.utf8)
        let chunks = [Array(bytes[..<split.offset]), Array(bytes[split.offset...])]
        #expect(frames(chunks) == Self.sampleLines)
    }

    @Test("A stream fed one byte at a time yields the same lines")
    func byteByByte() {
        let chunks = Self.sample.utf8.map { [$0] }
        #expect(frames(chunks) == Self.sampleLines)
    }

    @Test(
        "Line endings and blank lines",
        arguments: [
            FramingCase(name: "LF", input: "a\nb\n", expected: ["a", "b"]),
            FramingCase(name: "CRLF strips the CR", input: "a\r\nb\r\n", expected: ["a", "b"]),
            FramingCase(name: "only one CR is stripped", input: "a\r\r\n", expected: ["a\r"]),
            FramingCase(name: "a CR inside a line is kept", input: "a\rb\n", expected: ["a\rb"]),
            FramingCase(name: "blank lines are skipped", input: "\n\n\na\n\n", expected: ["a"]),
            FramingCase(name: "whitespace-only lines are skipped", input: "  \n\t\n \r\n\r\na\n", expected: ["a"]),
            FramingCase(name: "leading whitespace of a line is kept", input: "  {}\n", expected: ["  {}"]),
            FramingCase(name: "a last line without newline is delivered at end", input: "a\nb", expected: ["a", "b"]),
            FramingCase(name: "a last CR-terminated line loses its CR", input: "a\r", expected: ["a"]),
            FramingCase(name: "empty input yields nothing", input: "", expected: []),
        ])
    func lineEndings(_ testCase: FramingCase) {
        #expect(frames(testCase.input, limit: testCase.limit) == testCase.expected)
    }

    @Test(
        "Limits",
        arguments: [
            FramingCase(name: "a line exactly at the limit is accepted", input: "12345678\n", limit: 8, expected: ["12345678"]),
            FramingCase(
                name: "a line at the limit with CRLF is accepted", input: "12345678\r\n", limit: 8, expected: ["12345678"]),
            FramingCase(name: "one byte over the limit is oversized", input: "123456789\n", limit: 8, expected: ["<oversized>"]),
            FramingCase(
                name: "an oversized line, then a normal one", input: "0123456789abcdef\n{}\n", limit: 8,
                expected: ["<oversized>", "{}"]),
            FramingCase(
                name: "normal, oversized, normal", input: "[1]\n0123456789abcdef\n[2]\n", limit: 8,
                expected: ["[1]", "<oversized>", "[2]"]),
            FramingCase(
                name: "an oversized last line without newline", input: "{}\n0123456789", limit: 8,
                expected: ["{}", "<oversized>"]),
        ])
    func limits(_ testCase: FramingCase) {
        #expect(frames(testCase.input, limit: testCase.limit) == testCase.expected)
    }

    @Test("An oversized line arriving in many chunks is reported once, and the stream goes on")
    func oversizedAcrossChunks() {
        let long = Array(repeating: UInt8(ascii: "x"), count: 100)
        var chunks: [[UInt8]] = [Array("{\"first\":1}\n".utf8)]
        for start in stride(from: 0, to: long.count, by: 7) {
            chunks.append(Array(long[start..<min(start + 7, long.count)]))
        }
        chunks.append(Array("yy\n{\"next\":2}\n".utf8))
        #expect(frames(chunks, limit: 16) == ["{\"first\":1}", "<oversized>", "{\"next\":2}"])
    }

    @Test("Many lines in one chunk all come out, in order")
    func manyLinesPerChunk() {
        let lines = (0..<5000).map { "{\"i\":\($0)}" }
        let text = lines.joined(separator: "\n") + "\n"
        #expect(frames(text) == lines)
    }

    @Test("A long line split into small chunks is reassembled exactly")
    func longLineInSmallChunks() {
        let line = String(repeating: "abcdefghij", count: 10_000)
        let bytes = Array((line + "\n").utf8)
        let chunks = stride(from: 0, to: bytes.count, by: 1000).map { Array(bytes[$0..<min($0 + 1000, bytes.count)]) }
        #expect(frames(chunks) == [line])
    }

    @Test("A discarded oversized line leaves no bytes buffered")
    func discardingHoldsNothing() {
        var framer = LineFramer(maximumFrameLength: 4)
        framer.append(Array("0123456789".utf8))
        #expect(framer.next() == .oversized(prefix: ArraySlice("0123456789".utf8), length: nil))
        #expect(framer.next() == nil)
        framer.append(Array("more bytes of the same line".utf8))
        #expect(framer.next() == nil)
        #expect(framer.bufferedByteCount == 0)
        framer.append(Array("end\n[]\n".utf8))
        #expect(framer.next() == .line(ArraySlice("[]".utf8)))
        #expect(framer.next() == nil)
        #expect(framer.finish() == nil)
    }
}

extension LineFramerTests {
    @Test("An oversized line keeps its first bytes, and its length once its newline is seen")
    func oversizedPrefixAndLength() {
        var framer = LineFramer(maximumFrameLength: 8)
        framer.append(Array("0123456789\n[]\n".utf8))
        #expect(framer.next() == .oversized(prefix: ArraySlice("0123456789".utf8), length: 10))
        #expect(framer.next() == .line(ArraySlice("[]".utf8)))
    }

    @Test("A line that never ends is reported once it passes the limit, keeping at most the scanner's prefix")
    func endlessLine() {
        let limit = 2 * FrameIDScanner.prefixLength
        var framer = LineFramer(maximumFrameLength: limit)
        var fed = 0
        var report: LineFramer.Frame?
        // Fed the way the reader feeds it: never more than the framer asks for.
        while report == nil {
            let size = min(1000, framer.appendLimit)
            framer.append(Array(repeating: UInt8(ascii: "x"), count: size))
            fed += size
            #expect(framer.bufferedByteCount <= limit + 2)
            report = framer.next()
        }
        #expect(fed <= limit + 2, "reported as soon as the line passed the limit")
        guard case .oversized(let prefix, let length)? = report else {
            Issue.record("expected an oversized report, got \(String(describing: report))")
            return
        }
        #expect(prefix.count == FrameIDScanner.prefixLength)
        #expect(length == nil)
        framer.append(Array(repeating: UInt8(ascii: "x"), count: 100_000))
        #expect(framer.next() == nil)
        framer.append(Array("x\n{}\n".utf8))
        #expect(framer.next() == .line(ArraySlice("{}".utf8)))
    }

    @Test("A line of exactly the limit with CRLF, fed as the reader feeds it, is accepted")
    func limitWithCRLFFedInSteps() {
        var framer = LineFramer(maximumFrameLength: 8)
        let bytes = Array("12345678\r\n".utf8)
        var offset = 0
        var frames: [LineFramer.Frame] = []
        while offset < bytes.count {
            let size = min(bytes.count - offset, framer.appendLimit, 3)
            framer.append(Array(bytes[offset..<(offset + size)]))
            offset += size
            while let frame = framer.next() { frames.append(frame) }
        }
        #expect(frames == [.line(ArraySlice("12345678".utf8))])
    }
}
