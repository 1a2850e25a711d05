import Foundation
import OnDeviceMCPTestSupport
import Testing

/// The README's Swift snippets are the `ReadmeExample` (and `BridgeExample`) targets' code,
/// word for word, and they run as shown.
@Suite("README")
struct ReadmeTests {
    /// The README's ```swift blocks, each without its common indentation.
    static func swiftBlocks() throws -> [String] {
        let readme = try String(contentsOf: Package.root.appendingPathComponent("README.md"), encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(dedented(current ?? []))
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Lines without the indentation they all share, joined.
    static func dedented(_ lines: [Substring]) -> String {
        let indent = lines.filter { !$0.allSatisfy(\.isWhitespace) }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
        return lines.map { $0.allSatisfy(\.isWhitespace) ? "" : String($0.dropFirst(indent)) }.joined(separator: "\n")
    }

    /// The example sources: whole files, and each `// README: NAME` … `// README: end` region,
    /// dedented.
    static func exampleSources() throws -> [String] {
        var sources: [String] = []
        for directory in ["Examples/ReadmeExample", "Examples/BridgeExample"] {
            let url = Package.root.appendingPathComponent(directory)
            for file in try FileManager.default.contentsOfDirectory(atPath: url.path) where file.hasSuffix(".swift") {
                let text = try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)
                sources.append(text)
                var region: [Substring]?
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    let trimmed = line.drop { $0 == " " }
                    if trimmed.hasPrefix("// README: end") {
                        if let lines = region { sources.append(dedented(lines)) }
                        region = nil
                    } else if trimmed.hasPrefix("// README: ") {
                        region = []
                    } else if region != nil {
                        region?.append(line)
                    }
                }
            }
        }
        return sources
    }

    @Test("Every Swift snippet of the README is in an example target word for word")
    func snippetsAreCompiledCode() throws {
        let blocks = try Self.swiftBlocks()
        #expect(blocks.count >= 6, "\(blocks.count) blocks")
        let sources = try Self.exampleSources()
        for block in blocks where !block.hasPrefix(".package(") {
            #expect(sources.contains { $0.contains(block) }, "not in Examples/ReadmeExample or BridgeExample:\n\(block)")
        }
    }

    @Test("The Install section names every library product, and only those")
    func installListsEveryProduct() throws {
        let install = try #require(try Self.swiftBlocks().first { $0.hasPrefix(".package(") })
        let manifest = try String(contentsOf: Package.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        func names(_ text: String, after marker: String) -> Set<String> {
            Set(text.components(separatedBy: marker).dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) })
        }
        let products = names(manifest, after: ".library(name: \"")
        let listed = names(install, after: ".product(name: \"")
        #expect(!products.isEmpty)
        #expect(listed == products, "README lists \(listed.sorted()), Package.swift has \(products.sorted())")
    }

    @Test(
        "The README's snippets run as shown: in process, a boxed process server, a remote one",
        .enabled(if: PythonPeers.enabled, PythonPeers.skipComment), .timeLimit(.minutes(2)))
    func snippetsRun() async throws {
        let peer = try await HTTPPeer.start("streamable_server.py")
        let python = try PythonPeers.python()
        var environment = ProcessInfo.processInfo.environment
        // mcp-server-time, as a user who installed it has it: in PATH.
        environment["PATH"] = URL(fileURLWithPath: python).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["README_EXAMPLE_PROCESS"] = "1"
        environment["README_EXAMPLE_HTTP_URL"] = try peer.url().absoluteString
        let run: ProcessRun
        do {
            run = try await ProcessRun.run(try BuiltProducts.readmeExample(), [], environment: environment)
        } catch {
            await peer.stop()
            throw error
        }
        await peer.stop()
        #expect(run.status == 0, "\(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == ["notes_search", "Lisbon: book the tram tour"], "\(run.standardOutput)")
        #expect(run.standardOutput.contains(#"{"titles":["Lisbon trip"]}"#))
        #expect(
            run.standardOutput.contains(#""query":{"type":"string","description":"Words in the note's title"}"#), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("Added: Call the bank"))
        #expect(run.standardOutput.contains(#""timezone": "Europe/Lisbon""#), "\(run.standardOutput)")
        #expect(run.standardOutput.contains(#"["echo", "#), "\(run.standardOutput)")
    }
}
