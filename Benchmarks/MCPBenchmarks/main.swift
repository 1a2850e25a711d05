// OnDeviceMCP benchmarks. Run in release:
//
//     swift run -c release MCPBenchmarks [json] [validation] [runtime | inprocess stdio memory]
//     swift run -c release MCPBenchmarks ceiling      (our stdio server against a do-nothing C server)
//     swift run -c release MCPBenchmarks model-eval model-overhead
//     swift run -c release MCPBenchmarks selection-eval [--misses] [--leave-one-server-out] [--held-out-by-server]
//
// No argument runs every group but the model groups (minutes each, a llama.cpp server they
// start themselves); `runtime` is `inprocess stdio memory`. Two hidden modes make
// this executable its own peer for the stdio group: `--serve-echo` (an MCPServer with the
// echo tool on standard input and output; `--serve-echo-shared` with the default options) and `--raw-responder` (one canned line per input
// line, nothing parsed).

import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())

if arguments.first == "--serve-echo" || arguments.first == "--serve-echo-shared" {
    try await Echo.serve(onConnectionThread: arguments.first == "--serve-echo")
    exit(0)
}
if arguments.first == "--loop" {
    try await ProfileLoops.run(Array(arguments.dropFirst()))
    exit(0)
}
if arguments.first == "--raw-responder" {
    RawResponder.run()
}

let selected: Set<String> = {
    // Options of a group (`--misses`) are not groups.
    var groups = Set(arguments.filter { !$0.hasPrefix("--") })
    if groups.remove("runtime") != nil {
        groups.formUnion(["inprocess", "stdio", "memory"])
    }
    return groups
}()

func wants(_ group: String) -> Bool {
    selected.isEmpty || selected.contains(group)
}

/// The groups that run only when named: they start a real model.
func wantsNamed(_ group: String) -> Bool {
    selected.contains(group)
}

print("# OnDeviceMCP benchmarks (median of \(Harness.rounds) rounds)")
print("")
if wants("json") {
    try JSONBenchmarks.run()
}
if wants("validation") {
    try ValidationBenchmarks.run()
}
if wants("selection") {
    try SelectionBenchmarks.run()
}
if wants("selection-eval") {
    try await SelectionEvaluation.run(arguments: arguments)
}
if wants("inprocess") {
    try await InProcessBenchmarks.run()
}
if wants("stdio") {
    fflush(nil)
    try await StdioBenchmarks.run()
}
if wants("ceiling") {
    fflush(nil)
    try CeilingBenchmarks.run()
    try await CeilingBenchmarks.threads(servers: 8)
}
if wants("http") {
    fflush(nil)
    try await HTTPBenchmarks.run()
}
if wants("memory") {
    fflush(nil)
    try await MemoryBenchmarks.run()
}
if wantsNamed("model-eval") {
    fflush(nil)
    try await ModelGroups.evaluation()
}
if wantsNamed("model-overhead") {
    fflush(nil)
    try await ModelGroups.overhead()
}
