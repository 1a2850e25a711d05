// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.

/// What a model wrote when its answer was cut as degenerate: a loop, or a run with no words.
///
/// A small model can fall into a loop (`[aesbw]; [aesbw]; …`) and write it until the response
/// token limit. The model watches every answer as it streams and stops the request as soon as
/// the loop is visible (see ``ChatCompletionsConfiguration/detectsDegenerateOutput``); the turn
/// then fails with ``ChatCompletionsError/degenerateOutput``, whose
/// ``ChatCompletionsError/degeneration`` is this.
public struct DegenerateOutput: Sendable, Hashable, CustomStringConvertible {
    /// What the model did. A struct with static members, so new kinds can be added.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The same text (a unit of 1 to 256 characters: a word, a sequence of words, a
        /// sentence) written over and over, back to back.
        public static let repeatedText = Kind(rawValue: "repeatedText")
        /// The same sequence of tokens (of the server's events) written over and over: a
        /// loop whose unit is longer than ``repeatedText`` looks for.
        public static let repeatedTokens = Kind(rawValue: "repeatedTokens")
        /// A long run of whitespace, punctuation and symbols without a letter or a digit.
        public static let runawayWhitespace = Kind(rawValue: "runawayWhitespace")

        public var description: String { rawValue }
    }

    /// Which part of the model's output was cut. A struct with static members, so new parts
    /// can be added.
    public struct Part: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The answer's content (with guided generation, the step's JSON: an answer or a call).
        public static let answer = Part(rawValue: "answer")
        /// The reasoning the server streams apart from the answer.
        public static let reasoning = Part(rawValue: "reasoning")
        /// The arguments of a call of the server's function calling.
        public static let toolCall = Part(rawValue: "tool call")

        public var description: String { rawValue }
    }

    /// What the model did.
    public let kind: Kind
    /// Which part of the output was cut.
    public let part: Part
    /// The text repeated (for ``Kind/runawayWhitespace``, the run's last characters), at most
    /// 256 characters.
    public let unit: String
    /// How many times ``unit`` came back to back when the answer was cut (for
    /// ``Kind/runawayWhitespace``, the run's length in characters).
    public let repeats: Int
    /// The characters (Unicode scalars) of the part the model had written when it was cut.
    public let characters: Int

    init(kind: Kind, part: Part = .answer, unit: String, repeats: Int, characters: Int) {
        self.kind = kind
        self.part = part
        self.unit = unit
        self.repeats = repeats
        self.characters = characters
    }

    /// The same, in another part of the output.
    func inPart(_ part: Part) -> DegenerateOutput {
        DegenerateOutput(kind: kind, part: part, unit: unit, repeats: repeats, characters: characters)
    }

    /// What the model did, in a clause: `it repeated "[aesbw]; " 8 times in a row`.
    public var description: String {
        switch kind {
        case .runawayWhitespace:
            "it wrote \(repeats) characters of whitespace and punctuation in a row, without a letter or digit"
        case .repeatedTokens:
            "it repeated a sequence of tokens (\(Self.shown(unit))) \(repeats) times in a row"
        default:
            "it repeated \(Self.shown(unit)) \(repeats) times in a row"
        }
    }

    /// The sentence a failed turn reports: `the model's answer was cut after 212 characters: …`.
    var sentence: String {
        let what = part == .answer ? "answer" : part == .reasoning ? "reasoning" : "tool call"
        return "the model's \(what) was cut after \(characters) characters: \(description)"
    }

    /// `text` quoted for a message: newlines and tabs escaped, at most 40 characters.
    static func shown(_ text: String) -> String {
        var escaped = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == 40 {
                escaped += "…"
                break
            }
            switch scalar {
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case "\r": escaped += "\\r"
            case "\"": escaped += "\\\""
            default: escaped.unicodeScalars.append(scalar)
            }
            count += 1
        }
        return "\"" + escaped + "\""
    }
}
