#if canImport(FoundationModels)
internal import FoundationModels
#else
internal import PortableFoundationModels
#endif
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// A one-line description of why a turn failed.
@available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
func chatErrorDescription(_ error: any Error) -> String {
    if let toolError = error as? LanguageModelSession.ToolCallError {
        return "the tool \(toolError.tool.name) failed: \(toolError.underlyingError)"
    }
    return String(describing: error)
}
