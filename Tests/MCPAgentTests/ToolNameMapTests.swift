import MCPAgent
import Testing

@Suite("Tool names")
struct ToolNameMapTests {
    struct NameCase: Sendable, CustomTestStringConvertible {
        let serverNames: [String]
        let expected: [String: String]
        var testDescription: String { serverNames.joined(separator: ", ") }
    }

    static let cases: [NameCase] = [
        NameCase(serverNames: ["admin.tools.list"], expected: ["admin.tools.list": "admin_tools_list"]),
        NameCase(serverNames: ["get-weather", "notes_search"], expected: ["get-weather": "get_weather", "notes_search": "notes_search"]),
        NameCase(
            serverNames: ["a.b", "a_b", "a-b"],
            expected: ["a_b": "a_b", "a-b": "a_b_2", "a.b": "a_b_3"]),
        NameCase(serverNames: ["3d.render"], expected: ["3d.render": "_3d_render"]),
        NameCase(serverNames: ["météo"], expected: ["météo": "m_t_o"]),
        NameCase(serverNames: [""], expected: ["": "tool"]),
    ]

    @Test("Server names map to model names and back", arguments: cases)
    func roundTrip(_ nameCase: NameCase) {
        let map = ToolNameMap(serverNames: nameCase.serverNames)
        for (server, model) in nameCase.expected {
            #expect(map.modelName(for: server) == model)
            #expect(map.serverName(for: model) == server)
            #expect(ToolNameMap.isValidModelName(model))
        }
    }

    @Test("The mapping does not depend on listing order")
    func deterministic() {
        let names = ["x.y", "x_y", "x-y", "z"]
        let forward = ToolNameMap(serverNames: names)
        let backward = ToolNameMap(serverNames: names.reversed())
        #expect(forward == backward)
        #expect(Set(forward.mappings.map(\.modelName)).count == names.count)
    }

    @Test("A tool keeps its model name when another tool takes its plain form later")
    func preserving() {
        let before = ToolNameMap(serverNames: ["a.b"])
        let after = ToolNameMap(serverNames: ["a.b", "a_b"], preserving: before)
        #expect(after.modelName(for: "a.b") == "a_b")
        #expect(after.modelName(for: "a_b") == "a_b_2")
        #expect(after.serverName(for: "a_b_2") == "a_b")
    }

    @Test("Long names are cut to 64 characters and stay unique")
    func longNames() {
        let long = String(repeating: "a.", count: 50)
        let map = ToolNameMap(serverNames: [long, long + "x"])
        let models = [map.modelName(for: long), map.modelName(for: long + "x")].compactMap { $0 }
        #expect(models.count == 2 && Set(models).count == 2)
        #expect(models.allSatisfy { $0.count <= 67 })
    }
}
