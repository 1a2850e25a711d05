import Foundation
import MCPCore

/// Parse and write times of OnDeviceMCP's codec next to Foundation's, for MCP messages.
enum JSONBenchmarks {
    static func run() throws {
        print("## JSON codec (median time per message; speed-up = Foundation's best / ours)")
        print("")
        let header = [
            Harness.pad("message", 26), Harness.pad("op", 6), Harness.padLeft("OnDeviceMCP", 12),
            Harness.padLeft("JSONSerial.", 12), Harness.padLeft("JSONDec/Enc", 12), Harness.padLeft("speed-up", 9),
        ]
        print(header.joined(separator: " "))
        let cases: [(String, String)] = [
            ("tools/call request", Messages.toolsCall),
            ("tools/list, 50 tools", Messages.toolsList),
            ("100 KB tool result", Messages.largeResult),
        ]
        for (name, text) in cases {
            let bytes = Array(text.utf8)
            let data = Data(bytes)
            let value = try JSONValue(parsing: bytes)
            let foundationObject = try JSONSerialization.jsonObject(with: data)
            let decoder = JSONDecoder()
            let encoder = JSONEncoder()
            let label = "\(name) (\(bytes.count) B)"

            let ourParse = Harness.measure("ours parse") { blackHole(try? JSONValue(parsing: bytes)) }
            let serializationParse = try Harness.measure("JSONSerialization parse") {
                blackHole(try JSONSerialization.jsonObject(with: data))
            }
            let decoderParse = try Harness.measure("JSONDecoder") { blackHole(try decoder.decode(JSONValue.self, from: data)) }
            report(label, "parse", ourParse, serializationParse, decoderParse)

            let ourWrite = Harness.measure("ours write") { blackHole(try? value.jsonBytes()) }
            let serializationWrite = try Harness.measure("JSONSerialization write") {
                blackHole(try JSONSerialization.data(withJSONObject: foundationObject))
            }
            let encoderWrite = try Harness.measure("JSONEncoder") { blackHole(try encoder.encode(value)) }
            report("", "write", ourWrite, serializationWrite, encoderWrite)
        }
        try typedRequest()
        print("")
    }

    /// The small request once more, with Foundation's Codable at its best: decoding into and
    /// encoding from typed structs rather than a generic JSON value.
    private static func typedRequest() throws {
        let bytes = Array(Messages.toolsCall.utf8)
        let data = Data(bytes)
        let decoder = JSONDecoder()
        let encoder = JSONEncoder()
        let typed = try decoder.decode(TypedCallRequest.self, from: data)
        let value = try JSONValue(parsing: bytes)
        let ourParse = Harness.measure("ours parse") { blackHole(try? JSONValue(parsing: bytes)) }
        let serializationParse = try Harness.measure("JSONSerialization parse") {
            blackHole(try JSONSerialization.jsonObject(with: data))
        }
        let decoderParse = try Harness.measure("JSONDecoder typed") { blackHole(try decoder.decode(TypedCallRequest.self, from: data)) }
        report("tools/call, typed Codable", "parse", ourParse, serializationParse, decoderParse)
        let foundationObject = try JSONSerialization.jsonObject(with: data)
        let ourWrite = Harness.measure("ours write") { blackHole(try? value.jsonBytes()) }
        let serializationWrite = try Harness.measure("JSONSerialization write") {
            blackHole(try JSONSerialization.data(withJSONObject: foundationObject))
        }
        let encoderWrite = try Harness.measure("JSONEncoder typed") { blackHole(try encoder.encode(typed)) }
        report("", "write", ourWrite, serializationWrite, encoderWrite)
    }

    private static func report(
        _ label: String, _ operation: String, _ ours: Measurement, _ serialization: Measurement, _ codable: Measurement
    ) {
        let best = min(serialization.nanosecondsPerIteration, codable.nanosecondsPerIteration)
        let row = [
            Harness.pad(label, 26), Harness.pad(operation, 6),
            Harness.padLeft(Harness.format(nanoseconds: ours.nanosecondsPerIteration), 12),
            Harness.padLeft(Harness.format(nanoseconds: serialization.nanosecondsPerIteration), 12),
            Harness.padLeft(Harness.format(nanoseconds: codable.nanosecondsPerIteration), 12),
            Harness.padLeft(String(format: "%.1f×", best / ours.nanosecondsPerIteration), 9),
        ]
        print(row.joined(separator: " "))
    }
}

/// The small `tools/call` request as typed Codable structs, Foundation's fastest path.
struct TypedCallRequest: Codable {
    struct Params: Codable {
        struct Arguments: Codable {
            var query: String
            var limit: Int
        }

        var name: String
        var arguments: Arguments
    }

    var jsonrpc: String
    var id: Int
    var method: String
    var params: Params
}
