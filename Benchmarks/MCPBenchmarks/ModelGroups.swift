/// The groups that run a real model (`model-eval`, `model-overhead`): where FoundationModels
/// exists, ChatCompletions is empty and they are skipped.
enum ModelGroups {
    /// `model-eval`, with the options among `arguments` (``ModelOptions``: `--model`, `--prompts`, `--sampling`).
    static func evaluation(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) async throws {
        #if canImport(FoundationModels)
        print("## model-eval: skipped (ChatCompletions is for platforms without FoundationModels)")
        #else
        try await ModelEvaluation.run(ModelOptions(arguments))
        #endif
    }

    static func overhead() async throws {
        #if canImport(FoundationModels)
        print("## model-overhead: skipped (ChatCompletions is for platforms without FoundationModels)")
        #else
        try await ModelOverhead.run()
        #endif
    }
}
