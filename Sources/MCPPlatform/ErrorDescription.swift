#if canImport(FoundationEssentials)
import FoundationEssentials
// `POSIXErrorCode`, the type of `POSIXError.code`, comes from the C library's module.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
#else
import Foundation
#endif

/// A short reason for `error`, for messages such as `cannot read 'x': <reason>`.
///
/// On Darwin this is Foundation's `localizedDescription`. FoundationEssentials has no
/// `localizedDescription`, so there a file error (`CocoaError`) is described by the POSIX
/// error under it, such as `No such file or directory`; other errors by their
/// `LocalizedError.errorDescription` or else their `description`.
package func readableDescription(of error: any Error) -> String {
    #if canImport(FoundationEssentials)
    if let error = error as? CocoaError {
        if let posix = error.underlying as? POSIXError {
            return POSIX.message(for: posix.code.rawValue)
        }
        return "error \(error.code.rawValue)"
    }
    if let error = error as? POSIXError {
        return POSIX.message(for: error.code.rawValue)
    }
    if let error = error as? any LocalizedError, let text = error.errorDescription {
        return text
    }
    return String(describing: error)
    #else
    return error.localizedDescription
    #endif
}
