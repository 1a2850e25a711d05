#if canImport(FoundationModels)
internal import FoundationModels
#else
internal import PortableFoundationModels
#endif

@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
extension Array where Element == Transcript.Entry {
    /// The index of the last prompt: where the latest turn starts.
    var latestPromptIndex: Int? {
        lastIndex { entry in
            if case .prompt = entry { return true }
            return false
        }
    }
}
