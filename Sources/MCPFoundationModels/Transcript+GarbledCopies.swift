#if canImport(FoundationModels)
internal import FoundationModels
#else
internal import PortableFoundationModels
#endif

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension Transcript {
    /// The values an answer may copy, from the conversation's prompts and tool outputs (see
    /// ``GarbledCopies``).
    var garbledCopies: GarbledCopies {
        var sources: [String] = []
        for entry in self {
            let segments: [Transcript.Segment]
            switch entry {
            case .prompt(let prompt): segments = prompt.segments
            case .toolOutput(let output): segments = output.segments
            default: continue
            }
            for segment in segments {
                if case .text(let text) = segment { sources.append(text.content) }
            }
        }
        return GarbledCopies(sources: sources)
    }
}
