#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the test process was built with.
public enum Sanitizers {
    /// Whether this process runs under ThreadSanitizer (`swift test --sanitize=thread`), and
    /// so the executables built with it too: their memory is then several times larger
    /// (shadow memory) and they run several times slower, so peak-memory bounds do not apply
    /// and hang guards are longer.
    public static let threadSanitizerIsActive: Bool = {
        guard let program = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(program, "__tsan_init") != nil
    }()

    /// `duration`, stretched under ThreadSanitizer: for hang guards, and for the timeouts of
    /// calls that must succeed however slowly they run.
    public static func stretched(_ duration: Duration) -> Duration {
        threadSanitizerIsActive ? duration * 5 : duration
    }
}
