// OnDeviceMCP benchmarks. Run in release: `swift run -c release MCPBenchmarks [json] [validation]`.

let selected = Set(CommandLine.arguments.dropFirst())

func wants(_ group: String) -> Bool {
    selected.isEmpty || selected.contains(group)
}

print("# OnDeviceMCP benchmarks (median of \(Harness.rounds) rounds)")
print("")
if wants("json") {
    try JSONBenchmarks.run()
}
if wants("validation") {
    try ValidationBenchmarks.run()
}
