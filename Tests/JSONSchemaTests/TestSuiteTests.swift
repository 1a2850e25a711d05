import Foundation
import JSONCore
import JSONSchema
import Testing

/// Runs the official JSON Schema Test Suite (json-schema-org/JSON-Schema-Test-Suite), read at test
/// time from `Tests/Fixtures/JSONSchemaTestSuite/<draft>/*.json` (vendored in the repository;
/// see the README there).
///
/// Every group of every file is run except those in ``OfficialSuite/exclusions``, each listed with
/// its reason. Each file's pass rate is printed to standard output as
/// `[JSON Schema Test Suite] draft2020-12/type.json: 80/80 passed (excluded 0)`.
enum OfficialSuite {
    /// `Tests/Fixtures/JSONSchemaTestSuite`, found from this source file's path.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // JSONSchemaTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures/JSONSchemaTestSuite")

    /// How many files each draft's folder holds (the suite's required tests at the vendored commit).
    static let expectedFileCounts = ["draft2020-12": 46, "draft7": 37]

    static func files(_ draft: String) -> [String] {
        let folder = directory.appendingPathComponent(draft)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }

    /// Groups not run, by draft, file and group description, each with the reason.
    static let exclusions: [String: [String: [String: String]]] = [
        "draft2020-12": [
            "refRemote.json": [
                "*":
                    "needs remote documents (http://localhost:1234/…); remote references are never fetched and are reported as SchemaError.unresolvedReference at parse time"
            ],
            "vocabulary.json": [
                "*": "custom meta-schemas with $vocabulary need the meta-schema document fetched; $vocabulary is not supported"
            ],
            "ref.json": [
                "remote ref, containing refs itself": "$ref to the 2020-12 meta-schema, a remote document that is not bundled"
            ],
            "defs.json": [
                "validate definition against metaschema": "$ref to the 2020-12 meta-schema, a remote document that is not bundled"
            ],
            "dynamicRef.json": [
                "strict-tree schema, guards against misspelled properties":
                    "$ref to http://localhost:1234/draft2020-12/tree.json, a remote document",
                "tests for implementation dynamic anchor and reference link":
                    "$ref to http://localhost:1234/draft2020-12/extendible-dynamic-ref.json, a remote document",
                "$ref and $dynamicAnchor are independent of order - $defs first":
                    "$ref to http://localhost:1234/draft2020-12/extendible-dynamic-ref.json, a remote document",
                "$ref and $dynamicAnchor are independent of order - $ref first":
                    "$ref to http://localhost:1234/draft2020-12/extendible-dynamic-ref.json, a remote document",
                "$ref to $dynamicRef finds detached $dynamicAnchor":
                    "$ref to http://localhost:1234/draft2020-12/detached-dynamicref.json, a remote document",
            ],
        ],
        "draft7": [
            "refRemote.json": [
                "*":
                    "needs remote documents (http://localhost:1234/…); remote references are never fetched and are reported as SchemaError.unresolvedReference at parse time"
            ],
            "ref.json": [
                "remote ref, containing refs itself": "$ref to the draft-07 meta-schema, a remote document that is not bundled"
            ],
            "definitions.json": [
                "validate definition against metaschema": "$ref to the draft-07 meta-schema, a remote document that is not bundled"
            ],
        ],
    ]

    struct Tally {
        var passed = 0
        var total = 0
        var excluded = 0
    }

    static func run(draft: String, file: String) throws {
        let url = directory.appendingPathComponent(draft).appendingPathComponent(file)
        let document = try JSONValue(parsing: [UInt8](try Data(contentsOf: url)))
        let groups = try #require(document.arrayValue, "\(file) is not an array of groups")
        let excluded = exclusions[draft]?[file] ?? [:]
        let options = JSONSchema.Options(defaultDialect: draft == "draft7" ? .draft07 : .draft2020_12)
        var tally = Tally()
        for group in groups {
            let description = group["description"]?.stringValue ?? "?"
            let tests = group["tests"]?.arrayValue ?? []
            if excluded["*"] != nil || excluded[description] != nil {
                tally.excluded += 1
                continue
            }
            let schemaValue = try #require(group["schema"], "\(file): group \(description) has no schema")
            let schema: JSONSchema
            do {
                schema = try JSONSchema(schemaValue, options: options)
            } catch {
                tally.total += tests.count
                Issue.record("\(draft)/\(file): \"\(description)\": the schema does not parse: \(error)")
                continue
            }
            for test in tests {
                tally.total += 1
                let data = test["data"] ?? .null
                let expected = test["valid"]?.boolValue ?? false
                let fast = schema.isValid(data)
                let full = schema.validate(data)
                if fast == expected && full.isValid == expected {
                    tally.passed += 1
                } else {
                    Issue.record(
                        """
                        \(draft)/\(file): "\(description)" / "\(test["description"]?.stringValue ?? "?")": \
                        expected \(expected ? "valid" : "invalid"), isValid=\(fast), validate=\(full)
                        """)
                }
                if !expected {
                    #expect(!full.errors.isEmpty, "an invalid instance must come with at least one error")
                }
            }
        }
        print("[JSON Schema Test Suite] \(draft)/\(file): \(tally.passed)/\(tally.total) passed (excluded \(tally.excluded))")
        #expect(tally.total > 0 || tally.excluded > 0, "\(file) ran no case")
    }
}

// The parameterized tests below run one case per file found; a missing folder would give them no
// cases, so the first test fails, naming the path, when the vendored files are not all there.
@Suite("JSON Schema Test Suite")
struct OfficialSuiteTests {
    @Test("The vendored suite is complete", arguments: OfficialSuite.expectedFileCounts.keys.sorted())
    func vendoredFilesArePresent(draft: String) {
        let folder = OfficialSuite.directory.appendingPathComponent(draft)
        #expect(
            OfficialSuite.files(draft).count == OfficialSuite.expectedFileCounts[draft],
            "expected \(OfficialSuite.expectedFileCounts[draft] ?? 0) files in \(folder.path); the fixtures are part of the repository, so a checkout without them is broken"
        )
    }

    @Test("draft2020-12", arguments: OfficialSuite.files("draft2020-12"))
    func draft2020_12(file: String) throws {
        try OfficialSuite.run(draft: "draft2020-12", file: file)
    }

    @Test("draft7", arguments: OfficialSuite.files("draft7"))
    func draft7(file: String) throws {
        try OfficialSuite.run(draft: "draft7", file: file)
    }
}
