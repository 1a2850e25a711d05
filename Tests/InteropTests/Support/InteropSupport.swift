import Dispatch
import Foundation
import MCP
import OnDeviceMCPTestSupport
import Testing

/// The package's root directory, found from this file's path.
enum Package {
    static let root = URL(fileURLWithPath: #filePath)  // Tests/InteropTests/Support/InteropSupport.swift
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A script in `Tests/Interop`.
    static func interopScript(_ name: String) -> String {
        root.appendingPathComponent("Tests/Interop/\(name)").path
    }
}

/// The Python interpreter with the official `mcp` SDK and the reference servers
/// (`scripts/bootstrap-python.sh` makes it at `.venv`).
///
/// Uses `ONDEVICE_MCP_PYTHON` when set, else `<package>/.venv/bin/python`. When that has no
/// `mcp`, the interop tests fail under CI (the `CI` environment variable is set) and are
/// skipped otherwise.
enum PythonPeers {
    enum Availability: Sendable {
        case available(python: String)
        case missing(reason: String)
    }

    static let skipComment: Comment =
        "no Python with the mcp SDK: run scripts/bootstrap-python.sh, or set ONDEVICE_MCP_PYTHON to a python that has mcp==2.3.0"

    static let availability: Availability = {
        // An explicit interpreter is used alone: a broken one is reported, not silently replaced.
        let candidates: [String]
        if let override = ProcessInfo.processInfo.environment["ONDEVICE_MCP_PYTHON"], !override.isEmpty {
            candidates = [override]
        } else {
            candidates = [Package.root.appendingPathComponent(".venv/bin/python").path]
        }
        var notes: [String] = []
        for candidate in candidates {
            guard FileManager.default.isExecutableFile(atPath: candidate) else {
                notes.append("\(candidate): not an executable")
                continue
            }
            let probe = try? ProcessRun.runBlocking(
                candidate, ["-c", "import mcp, importlib.metadata as m; print(m.version('mcp'))"])
            if let probe, probe.status == 0 {
                return .available(python: candidate)
            }
            notes.append("\(candidate): cannot import mcp (\(probe?.standardError.suffix(300) ?? "did not run"))")
        }
        return .missing(reason: notes.joined(separator: "; "))
    }()

    static var isCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !value.isEmpty && value != "0" && value.lowercased() != "false"
    }

    /// Whether the interop tests run: when the peers are there, and always under CI (where
    /// their absence is a failure, not a reason to skip).
    static var enabled: Bool {
        if case .available = availability { return true }
        return isCI
    }

    /// The interpreter's path; throws a clear error when there is none.
    static func python() throws -> String {
        switch availability {
        case .available(let python): return python
        case .missing(let reason):
            throw InteropSetupError(
                "the interop tests need a Python with the mcp SDK (CI is set, so this is a failure, not a skip): \(reason). Run scripts/bootstrap-python.sh, or set ONDEVICE_MCP_PYTHON."
            )
        }
    }

    /// A console script installed next to the interpreter, such as `mcp-server-time`.
    static func script(_ name: String) throws -> String {
        let path = URL(fileURLWithPath: try python()).deletingLastPathComponent().appendingPathComponent(name).path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw InteropSetupError("\(name) is not installed at \(path); run scripts/bootstrap-python.sh")
        }
        return path
    }
}

struct InteropSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init(_ label: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ondevice-mcp-interop-\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var path: String { url.path }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// One finished run of a command: its status and what it printed.
struct ProcessRun: Sendable {
    let status: Int32
    let standardOutput: String
    let standardError: String

    /// Runs a command to completion off the cooperative thread pool.
    static func run(
        _ executable: String, _ arguments: [String], currentDirectory: String? = nil, environment: [String: String]? = nil
    ) async throws -> ProcessRun {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result { try runBlocking(executable, arguments, currentDirectory: currentDirectory, environment: environment) })
            }
        }
    }

    /// Runs a command to completion on this thread, reading both pipes to their end.
    static func runBlocking(
        _ executable: String, _ arguments: [String], currentDirectory: String? = nil, environment: [String: String]? = nil
    ) throws -> ProcessRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        if let environment { process.environment = environment }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let errorText = PipeText()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorText.set(errors.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ProcessRun(
            status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self), standardError: errorText.text)
    }

    /// Runs a command that must succeed; returns its standard output.
    @discardableResult
    static func check(_ executable: String, _ arguments: [String], in directory: String? = nil) async throws -> String {
        let run = try await run(executable, arguments, currentDirectory: directory)
        guard run.status == 0 else {
            throw InteropSetupError("\(executable) \(arguments.joined(separator: " ")) exited with \(run.status): \(run.standardError)")
        }
        return run.standardOutput
    }
}

private final class PipeText: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func set(_ data: Data) {
        lock.lock()
        self.data = data
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Connects an ``MCPClient`` to a server process, runs `body`, and always closes the client
/// (which ends the child). The server's standard error is captured and attached to any failure.
func withServerProcess<T: Sendable>(
    _ executable: String, arguments: [String] = [], currentDirectory: String? = nil, handshake: MCPClient.Handshake,
    roots: [Root]? = nil, _ body: (MCPClient) async throws -> T
) async throws -> T {
    // A generous grace period: "exits on its own rather than being signalled" is the behaviour
    // checked below, and a Python server on a loaded machine can take seconds to shut down.
    // The period is a hang guard, not a timing assertion.
    let transport = try ProcessTransport.launch(
        executable, arguments: arguments, currentDirectory: currentDirectory, standardError: .capture,
        terminationGracePeriod: .seconds(30))
    let client: MCPClient
    do {
        client = try await MCPClient.connect(
            over: transport, configuration: MCPClient.Configuration(handshake: handshake, roots: roots))
    } catch {
        await transport.close()
        throw ServerProcessFailure(underlying: error, standardError: transport.capturedStandardError())
    }
    do {
        let value = try await body(client)
        await client.close()
        // Closing the client closes the child's standard input: a well-behaved server exits
        // on its own, within the grace period, rather than being signalled.
        let status = try await transport.exitStatus
        #expect(
            status == .exited(0),
            "\(executable) \(status) after the client closed; its standard error:\n\(transport.capturedStandardError().suffix(4000))")
        return value
    } catch {
        await client.close()
        throw ServerProcessFailure(underlying: error, standardError: transport.capturedStandardError())
    }
}

/// A failure talking to a server process, with what the server wrote on standard error.
struct ServerProcessFailure: Error, CustomStringConvertible {
    let underlying: any Error
    let standardError: String

    var description: String {
        "\(underlying)\n--- the server's standard error (last part) ---\n\(standardError.suffix(4000))"
    }
}
