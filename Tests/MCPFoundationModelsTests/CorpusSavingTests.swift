import Foundation
import MCP
import Testing

@testable import MCPAgent
@testable import MCPFoundationModels

#if canImport(FoundationModels)
import FoundationModels
#else
import PortableFoundationModels
#endif

/// What the model reads of the captured tools' definitions, before and after compaction.
@Suite("Compaction saving on the captured tools")
struct CorpusSavingTests {
    /// Characters the model reads of one tool, measured as ``BridgedToolset/estimatedTokens(of:budget:)``
    /// measures: the name, the description and the parameters schema encoded as JSON.
    struct Measure: Sendable {
        var description = 0
        var schema = 0
        var total = 0

        @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
        init(name: String, description: String, parameters: GenerationSchema) throws {
            self.description = description.count
            self.schema = try JSONEncoder().encode(parameters).count
            self.total = name.count + self.description + self.schema
        }

        init() {}

        static func += (lhs: inout Measure, rhs: Measure) {
            lhs.description += rhs.description
            lhs.schema += rhs.schema
            lhs.total += rhs.total
        }
    }

    /// `number` with thousands separators (`12,345`).
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }

    @available(iOS 26.0, macOS 26.0, visionOS 26.0, *)
    @Test("Every captured tool reads no more after compaction, and the corpus reads less (the saving is printed)")
    func saving() async throws {
        let (_, client) = try await connectedServer([])
        let budget = ContextBudget.onDevice
        var before = Measure()
        var after = Measure()
        for listed in ListedTool.all {
            let bridged = try MCPBridgedTool(tool: listed.tool, client: client)
            // Before: the description cut at a word, the schema's descriptions as the server wrote them.
            let oldDescription = DescriptionCompactor.modelDescription(of: listed.tool, budget: budget, cleans: true, compacts: false)
            let oldSchema = try LoweredSchema(
                UntrustedText.cleanedDescriptions(in: listed.tool.inputSchema), name: bridged.name, compacts: false)
            let old = try Measure(name: bridged.name, description: oldDescription, parameters: oldSchema.schema)
            // After: what the bridged tool gives the model.
            let new = try Measure(name: bridged.name, description: bridged.description, parameters: bridged.parameters)
            // A description may grow by a few characters (whole sentences up to the cap where the
            // old cut stopped at a word), but never the tool as a whole.
            #expect(new.total <= old.total, "\(listed): \(old.total) → \(new.total)")
            #expect(new.schema <= old.schema, "\(listed)")
            #expect(new.description <= budget.descriptionCharacters, "\(listed)")
            before += old
            after += new
        }
        await client.close()
        #expect(after.total < before.total)

        let percent = Double(before.total - after.total) * 100 / Double(max(1, before.total))
        let files = Set(ListedTool.all.map(\.file)).count
        print(
            "Compaction on \(ListedTool.all.count) captured tools from \(files) servers: "
                + "\(Self.grouped(before.total)) → \(Self.grouped(after.total)) characters "
                + "(about \(Self.grouped(budget.tokens(forCharacters: before.total))) → "
                + "\(Self.grouped(budget.tokens(forCharacters: after.total))) tokens at \(budget.charactersPerToken) characters per token), "
                + String(format: "%.1f%% less", percent)
                + "; descriptions \(Self.grouped(before.description)) → \(Self.grouped(after.description)), "
                + "parameter schemas \(Self.grouped(before.schema)) → \(Self.grouped(after.schema)).")
    }

    @Test("Thousands are grouped", arguments: [(0, "0"), (999, "999"), (1_000, "1,000"), (123_456, "123,456"), (1_234_567, "1,234,567")])
    func grouping(_ number: Int, _ text: String) {
        #expect(Self.grouped(number) == text)
    }
}
