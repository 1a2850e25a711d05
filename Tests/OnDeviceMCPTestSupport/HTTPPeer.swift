public import Foundation
import MCPPlatform
import Testing

/// A Python peer script (by default one of `Tests/Interop/http`) running on a free loopback port: started by a test,
/// stopped (standard input closed, then killed) when the test is done with it.
public final class HTTPPeer: @unchecked Sendable {
    // Safety: `process` and `input` are only touched by `stop()`; `exited` is thread-safe.
    private let process: Process
    private let input: Pipe
    /// Fulfilled by the process's termination handler: the exit, as an event.
    private let exited: OneShot<Void>
    public let port: Int

    private init(process: Process, input: Pipe, exited: OneShot<Void>, port: Int) {
        self.process = process
        self.input = input
        self.exited = exited
        self.port = port
    }

    public static let root = URL(fileURLWithPath: #filePath)  // Tests/OnDeviceMCPTestSupport/HTTPPeer.swift
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Python with the `mcp` SDK: `ONDEVICE_MCP_PYTHON`, else `.venv/bin/python`.
    public static let python: String? = {
        let candidate =
            ProcessInfo.processInfo.environment["ONDEVICE_MCP_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
            ?? root.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }()

    /// Whether the peers can run: a Python is there, or CI (where its absence must fail).
    public static var enabled: Bool {
        if python != nil { return true }
        guard let ci = ProcessInfo.processInfo.environment["CI"] else { return false }
        return !ci.isEmpty && ci != "0" && ci.lowercased() != "false"
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `script` of `directory` with `arguments` and waits (a hang guard of 60 s) for its
    /// first line: `PORT n`, or the port alone.
    public static func start(
        _ script: String, _ arguments: [String] = [], directory: String = "Tests/Interop/http"
    ) async throws -> HTTPPeer {
        guard let python else { throw StartFailure(description: "no Python with the mcp SDK: run scripts/bootstrap-python.sh") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [root.appendingPathComponent("\(directory)/\(script)").path] + arguments
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exited = OneShot<Void>()
        process.terminationHandler = { _ in exited.fulfill(()) }
        try process.run()
        let handle = output.fileHandleForReading
        // A blocking read of the first line, on a thread of its own, within a hang guard.
        let first: String
        do {
            first = try await withHangGuard(Sanitizers.stretched(.seconds(60)), "\(script) printing its port") {
                await onThread {
                    var bytes: [UInt8] = []
                    while true {
                        let byte = handle.readData(ofLength: 1)
                        guard let first = byte.first, first != 0x0A else { break }
                        bytes.append(first)
                    }
                    return String(decoding: bytes, as: UTF8.self)
                }
            }
        } catch {
            process.terminate()
            throw error
        }
        let number = first.hasPrefix("PORT ") ? first.dropFirst(5) : Substring(first)
        guard let port = Int(number.trimmingCharacters(in: .whitespaces)) else {
            process.terminate()
            throw StartFailure(
                description: "\(script) \(arguments.joined(separator: " ")) did not print its port (got \(first.debugDescription))")
        }
        return HTTPPeer(process: process, input: input, exited: exited, port: port)
    }

    public func url(_ path: String = "/mcp") throws -> URL {
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else { throw StartFailure(description: "bad path \(path)") }
        return url
    }

    /// Stops the script: closes its standard input (it exits), and if it has not exited
    /// within 10 s (a hang guard), kills it; returns once it is gone.
    public func stop() async {
        try? input.fileHandleForWriting.close()
        let exited = exited
        if await exited.wait(within: .seconds(10)) == nil {
            kill(process.processIdentifier, SIGKILL)
            await exited.waitEvenIfCancelled()
        }
    }

    /// Runs `body` with the script running, and stops it after, whether `body` throws or not.
    public static func with<Result: Sendable>(
        _ script: String, _ arguments: [String] = [], directory: String = "Tests/Interop/http",
        _ body: (HTTPPeer) async throws -> Result
    ) async throws -> Result {
        let peer = try await start(script, arguments, directory: directory)
        do {
            let result = try await body(peer)
            await peer.stop()
            return result
        } catch {
            await peer.stop()
            throw error
        }
    }
}
