// swift-tools-version:6.2
//
// OnDeviceMCP: MCP servers, clients and a FoundationModels bridge for Apple's
// on-device model, with no dependency beyond the Swift toolchain.

import PackageDescription

let package = Package(
    name: "OnDeviceMCP",
    // The same Swift runtime floor everywhere (Clock and Duration). Only macOS, Mac Catalyst and
    // Linux start processes (MCP_CAN_SPAWN below), so iOS, visionOS, watchOS and tvOS have no
    // ProcessTransport; FoundationModels is missing on watchOS and tvOS, so the bridge uses
    // PortableFoundationModels there.
    platforms: [.macOS(.v13), .iOS(.v16), .watchOS(.v9), .tvOS(.v16), .visionOS(.v1)],
    products: [
        .library(name: "JSONCore", targets: ["JSONCore"]),
        .library(name: "MCPCore", targets: ["MCPCore"]),
        .library(name: "JSONSchema", targets: ["JSONSchema"]),
        .library(name: "MCPSandbox", targets: ["MCPSandbox"]),
        .library(name: "MCP", targets: ["MCP"]),
        .library(name: "PortableFoundationModels", targets: ["PortableFoundationModels"]),
        .library(name: "MCPAgent", targets: ["MCPAgent"]),
        .library(name: "MCPFoundationModels", targets: ["MCPFoundationModels"]),
        .library(name: "MCPHTTP", targets: ["MCPHTTP"]),
        .library(name: "ChatCompletions", targets: ["ChatCompletions"]),
        .executable(name: "ondevice-mcp", targets: ["ondevice-mcp"]),
        .executable(name: "ondevice-mcp-serve", targets: ["ondevice-mcp-serve"]),
    ],
    dependencies: [],
    targets: [
        // JSON values and their strict codec; needs nothing from MCP.
        .target(
            name: "JSONCore",
            // Swift's floating-point rounding calls into libm, which is not linked implicitly on Linux.
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
        ),
        // MCP's JSON-RPC and protocol types; re-exports JSONCore.
        .target(name: "MCPCore", dependencies: ["JSONCore"]),
        .target(name: "JSONSchema", dependencies: ["JSONCore"]),
        // The C library behind small Swift functions (descriptors, poll, spawn, threads, locks, error text):
        // all of the package's platform code, for the modules above. Not a product.
        .target(name: "MCPPlatform", dependencies: ["CMCPPlatform"]),
        // The process box's child between clone and execve, which must make only raw system
        // calls (see its header for why that is C).
        .target(name: "CMCPPlatform"),
        // The box a server process runs in (Sandbox, its launch plan, the Linux rules the child
        // applies between clone and execve, the macOS profile) as a process launch hook, and
        // RootConfinement. Below MCP: MCP's process transport boxes through its hook, and MCP
        // re-exports it, so `import MCP` and `.process(…, sandbox:)` are all an app writes.
        .target(name: "MCPSandbox", dependencies: ["MCPCore", "MCPPlatform"]),
        .target(name: "MCP", dependencies: ["MCPCore", "JSONSchema", "MCPPlatform", "MCPSandbox"]),
        // The package's one HTTP client (not a product): the socket engine and URLSession, chosen
        // by scheme, platform and proxy settings in `HTTPEngine`, the HTTP/1 and SSE parsers.
        // The one module that needs Foundation's networking.
        .target(name: "HTTPClientCore", dependencies: ["MCPPlatform"]),
        // MCP's Streamable HTTP client transport (and the 2024-11-05 HTTP+SSE fallback), over HTTPClientCore.
        .target(name: "MCPHTTP", dependencies: ["MCP", "MCPCore", "MCPPlatform", "HTTPClientCore"]),
        // A model on an OpenAI-compatible chat-completions server (llama.cpp, Ollama, vLLM, hosted
        // APIs) as a FoundationModels 27 `LanguageModel` (Apple's protocol where FoundationModels
        // exists, PortableFoundationModels' elsewhere), over HTTPClientCore.
        .target(name: "ChatCompletions", dependencies: ["PortableFoundationModels", "HTTPClientCore", "JSONCore", "MCPPlatform"]),
        // Apple's FoundationModels API for platforms without it; empty where FoundationModels exists.
        .target(name: "PortableFoundationModels", dependencies: ["TokenEstimation"]),
        // The package's one token estimate, for PortableFoundationModels' TokenEstimator and
        // MCPAgent's ContextBudget. Depends on nothing, so the portable module needs nothing else. Not a product.
        .target(name: "TokenEstimation"),
        // Model-agnostic agent policy: tool choice, the context budget, description compaction,
        // the defences and their events. Needs no FoundationModels.
        .target(name: "MCPAgent", dependencies: ["MCP", "MCPCore", "MCPPlatform", "TokenEstimation"]),
        // The bridge: MCP tools as FoundationModels tools, sessions and toolboxes; re-exports MCPAgent.
        .target(
            name: "MCPFoundationModels",
            dependencies: ["MCPAgent", "MCP", "MCPCore", "MCPPlatform", "JSONSchema", "PortableFoundationModels"]
        ),
        // The tools `ondevice-mcp serve` offers (clock, notes), as an app would write them. Not a product.
        .target(name: "OnDeviceMCPExamples", dependencies: ["MCP", "MCPCore", "MCPPlatform", "MCPSandbox"]),
        // Every command of ondevice-mcp: stdio, process and HTTP servers, the on-device model and
        // model servers (ChatCompletions). Not a product.
        .target(
            name: "MCPCommandLine",
            dependencies: [
                "MCP", "MCPCore", "MCPHTTP", "MCPFoundationModels", "PortableFoundationModels", "ChatCompletions", "MCPPlatform",
                "OnDeviceMCPExamples",
            ]
        ),
        .executableTarget(name: "ondevice-mcp", dependencies: ["MCPCommandLine"]),
        // `ondevice-mcp serve` alone, for where a server's idle memory matters: no HTTP client and
        // no model client, so Foundation proper (and ICU) stay out of the process.
        .executableTarget(name: "ondevice-mcp-serve", dependencies: ["MCP", "MCPPlatform", "OnDeviceMCPExamples"]),
        .executableTarget(
            name: "BridgeExample",
            dependencies: ["MCP", "MCPFoundationModels", "PortableFoundationModels"],
            path: "Examples/BridgeExample"
        ),
        // The README's snippets, word for word, as an app would build and run them.
        .executableTarget(
            name: "ReadmeExample",
            dependencies: ["MCP", "MCPHTTP"],
            path: "Examples/ReadmeExample"
        ),
        .executableTarget(
            name: "MCPBenchmarks",
            dependencies: [
                "MCPCore", "JSONCore", "JSONSchema", "MCP", "MCPFoundationModels", "MCPHTTP", "HTTPClientCore", "ChatCompletions",
                "PortableFoundationModels",
                "OnDeviceMCPExamples",
            ],
            path: "Benchmarks/MCPBenchmarks"
        ),
        // The ceiling for a stdio round trip (a do-nothing JSON-RPC server) and the load
        // driver for the `ceiling` benchmark group, in C so that neither is the bottleneck.
        .executableTarget(name: "mcp-ceiling-server", path: "Benchmarks/Ceiling/mcp-ceiling-server"),
        .executableTarget(name: "mcp-wire-driver", path: "Benchmarks/Ceiling/mcp-wire-driver"),
        .testTarget(name: "JSONCoreTests", dependencies: ["JSONCore", "OnDeviceMCPTestSupport"]),
        .testTarget(name: "MCPCoreTests", dependencies: ["MCPCore"]),
        .testTarget(name: "JSONSchemaTests", dependencies: ["JSONSchema", "JSONCore"]),
        .testTarget(name: "MCPPlatformTests", dependencies: ["MCPPlatform"]),
        .testTarget(name: "MCPTests", dependencies: ["MCP", "MCPCore", "MCPPlatform", "OnDeviceMCPTestSupport"]),
        .testTarget(name: "MCPSandboxTests", dependencies: ["MCPSandbox", "MCPCore", "MCPPlatform"]),
        .testTarget(name: "HTTPClientCoreTests", dependencies: ["HTTPClientCore"]),
        .testTarget(
            name: "MCPHTTPTests",
            dependencies: [
                "MCPHTTP", "HTTPClientCore", "MCP", "MCPCore", "MCPPlatform", "OnDeviceMCPTestSupport", "MCPFoundationModels",
                "PortableFoundationModels",
            ],
            exclude: ["Peers"]
        ),
        // What the test targets share (not a product, not API).
        .target(name: "OnDeviceMCPTestSupport", dependencies: ["MCPPlatform"], path: "Tests/OnDeviceMCPTestSupport"),
        .testTarget(
            name: "MCPCommandLineTests",
            dependencies: [
                "MCPCommandLine", "OnDeviceMCPExamples", "MCP", "OnDeviceMCPTestSupport", "MCPFoundationModels",
                "PortableFoundationModels", "ChatCompletions",
            ]),
        .testTarget(
            name: "InteropTests",
            dependencies: [
                "MCP", "MCPCommandLine", "OnDeviceMCPExamples", "MCPFoundationModels", "PortableFoundationModels",
                "OnDeviceMCPTestSupport",
            ]
        ),
        .testTarget(name: "OnDeviceMCPExamplesTests", dependencies: ["OnDeviceMCPExamples", "MCP", "OnDeviceMCPTestSupport"]),
        .testTarget(name: "PortableFoundationModelsTests", dependencies: ["PortableFoundationModels"]),
        .testTarget(
            name: "ChatCompletionsTests",
            dependencies: [
                "ChatCompletions", "PortableFoundationModels", "MCPFoundationModels", "MCP", "MCPCore", "JSONCore", "JSONSchema",
                "OnDeviceMCPExamples", "OnDeviceMCPTestSupport", "HTTPClientCore",
            ]),
        .testTarget(name: "MCPAgentTests", dependencies: ["MCPAgent", "MCP", "MCPCore", "OnDeviceMCPTestSupport"]),
        .testTarget(
            name: "MCPFoundationModelsTests",
            dependencies: ["MCPFoundationModels", "MCPAgent", "PortableFoundationModels", "MCP", "OnDeviceMCPTestSupport"],
            exclude: ["Fixtures"]
        ),
        // A test MCP server with one fault per mode (raw JSON-RPC over stdio, no MCPServer),
        // and the tests that drive it through the library and the CLI.
        .executableTarget(name: "HostilePeer", dependencies: ["MCPCore", "HostilePeerModes"], path: "Tests/HostilePeer"),
        // The hostile peer's modes, the one list both the peer and its tests read.
        .target(name: "HostilePeerModes", path: "Tests/HostilePeerModes"),
        // Runs a command and records its exact peak memory (see Tests/PeakRSS/main.swift for why).
        .executableTarget(name: "PeakRSS", path: "Tests/PeakRSS"),
        .testTarget(
            name: "HostilePeerTests", dependencies: ["MCP", "MCPCore", "MCPPlatform", "OnDeviceMCPTestSupport", "HostilePeerModes"]),
    ],
    swiftLanguageModes: [.v6]
)

// Strict settings for every target, the way swift-log and swift-openapi-runtime do it.
//
// MCP_CAN_SPAWN: where an app may start a process, so `#if MCP_CAN_SPAWN` compiles
// ProcessTransport, `ServerEndpoint.process`, the process box and their support. macOS and
// Linux; Mac Catalyst too (an app on macOS, which may start processes, within its sandbox when
// it has one). Not iOS or visionOS (apps may not start processes) nor watchOS or tvOS (no
// posix_spawn, no fork). CMCPPlatform's C makes the same choice with TargetConditionals.
//
// `ONDEVICE_MCP_CHECK_NO_SPAWN=1` (scripts/check-no-spawn.sh, CI) builds the libraries on Linux
// as iOS gets them: without MCP_CAN_SPAWN, but for MCPPlatform, whose Linux-only code iOS never
// compiles.
let checksNoSpawn = Context.environment["ONDEVICE_MCP_CHECK_NO_SPAWN"] == "1"
for target in package.targets where [.regular, .test, .executable].contains(target.type) && target.name != "CMCPPlatform" {
    let spawns: [Platform] = checksNoSpawn && target.name != "MCPPlatform" ? [.macOS, .macCatalyst] : [.macOS, .macCatalyst, .linux]
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .define("MCP_CAN_SPAWN", .when(platforms: spawns)),
        ]
}
