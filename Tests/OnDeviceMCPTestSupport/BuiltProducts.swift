import Foundation

/// Finds executables the build made, for tests that run them as real processes.
///
/// Not API: a target the test targets share, so the search lives in one place.
public enum BuiltProducts {
    /// The `ondevice-mcp` executable.
    ///
    /// Looks, in order, at `ONDEVICE_MCP_BINARY`; the directory of the running test executable
    /// (on Linux the `.xctest` bundle is the executable, in the products directory); the
    /// directory holding any loaded `.xctest` bundle (macOS); and `<package>/.build/debug`.
    public static func ondeviceMCP() throws -> String {
        try product(named: "ondevice-mcp", override: "ONDEVICE_MCP_BINARY")
    }

    /// The `ondevice-mcp-serve` executable (`ondevice-mcp serve` alone, without Foundation proper).
    ///
    /// Looks where ``ondeviceMCP()`` looks, with `ONDEVICE_MCP_SERVE_BINARY` as the override.
    public static func ondeviceMCPServe() throws -> String {
        try product(named: "ondevice-mcp-serve", override: "ONDEVICE_MCP_SERVE_BINARY")
    }

    /// The `HostilePeer` executable: a test MCP server with one fault per mode
    /// (`Tests/HostilePeer`).
    ///
    /// Looks where ``ondeviceMCP()`` looks, with `ONDEVICE_MCP_HOSTILE_PEER` as the override.
    public static func hostilePeer() throws -> String {
        try product(named: "HostilePeer", override: "ONDEVICE_MCP_HOSTILE_PEER")
    }

    /// The `ReadmeExample` executable: the README's Swift snippets (`Examples/ReadmeExample`).
    public static func readmeExample() throws -> String {
        try product(named: "ReadmeExample", override: "ONDEVICE_MCP_README_EXAMPLE")
    }

    /// The `PeakRSS` executable: runs a command and records its peak memory (`Tests/PeakRSS`).
    public static func peakRSS() throws -> String {
        try product(named: "PeakRSS", override: "ONDEVICE_MCP_PEAK_RSS")
    }

    private static func product(named name: String, override variable: String) throws -> String {
        var candidates: [String] = []
        if let override = ProcessInfo.processInfo.environment[variable] {
            candidates.append(override)
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent(name).path)
        if let main = Bundle.main.executableURL {
            candidates.append(main.deletingLastPathComponent().appendingPathComponent(name).path)
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name).path)
        }
        // Tests/OnDeviceMCPTestSupport/BuiltProducts.swift → the package root.
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(package.appendingPathComponent(".build/debug/\(name)").path)
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw BinaryNotFound(name: name, candidates: candidates)
    }

    /// The executable was not found where the build puts it.
    public struct BinaryNotFound: Error, CustomStringConvertible {
        public let name: String
        public let candidates: [String]
        public var description: String {
            "the \(name) executable was not built; looked at: \(candidates.joined(separator: ", "))"
        }
    }
}

/// The command-line box options the tests add for a server built like the tests.
///
/// Under ThreadSanitizer the test executables (`ondevice-mcp`, `HostilePeer`) reserve terabytes
/// of address space for shadow memory, which no address-space limit allows: there the box's
/// memory limit is lifted (`--memory-limit none`); everything else about the box stays.
public enum BoxArguments {
    public static var forThisBuild: [String] {
        Sanitizers.threadSanitizerIsActive ? ["--memory-limit", "none"] : []
    }
}
