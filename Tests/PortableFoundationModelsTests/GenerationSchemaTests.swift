#if !canImport(FoundationModels)
// PortableFoundationModels is empty where Apple's FoundationModels exists, and its API carries
// no availability of its own, so these tests build wherever the portable module has content.
import Foundation
@_spi(Portable) import PortableFoundationModels
import Testing

@Suite("GenerationSchema")
struct GenerationSchemaTests {
    // MARK: SchemaError

    @Test func undefinedReferenceThrows() throws {
        let root = DynamicGenerationSchema(
            name: "Trip",
            properties: [
                .init(name: "from", schema: DynamicGenerationSchema(referenceTo: "Place")),
                .init(name: "to", schema: DynamicGenerationSchema(referenceTo: "Place")),
                .init(name: "by", schema: DynamicGenerationSchema(referenceTo: "Vehicle")),
            ])
        #expect {
            try GenerationSchema(root: root, dependencies: [])
        } throws: { error in
            guard case .undefinedReferences(let schema, let references, _) = error as? GenerationSchema.SchemaError else { return false }
            return schema == "Trip" && references == ["Place", "Vehicle"]
        }
        let place = DynamicGenerationSchema(name: "Place", properties: [.init(name: "name", schema: .init(type: String.self))])
        let vehicle = DynamicGenerationSchema(name: "Vehicle", anyOf: ["car", "train"])
        _ = try GenerationSchema(root: root, dependencies: [place, vehicle])
    }

    @Test func duplicatePropertyThrows() {
        let root = DynamicGenerationSchema(
            name: "Args",
            properties: [
                .init(name: "city", schema: .init(type: String.self)),
                .init(name: "city", schema: .init(type: Int.self)),
            ])
        #expect {
            try GenerationSchema(root: root, dependencies: [])
        } throws: { error in
            guard case .duplicateProperty(let schema, let property, _) = error as? GenerationSchema.SchemaError else { return false }
            return schema == "Args" && property == "city"
        }
    }

    @Test func duplicatePropertyInNestedObjectThrows() {
        let inner = DynamicGenerationSchema(
            name: "Inner",
            properties: [
                .init(name: "x", schema: .init(type: Int.self)), .init(name: "x", schema: .init(type: Int.self)),
            ])
        let root = DynamicGenerationSchema(name: "Outer", properties: [.init(name: "inner", schema: inner)])
        #expect {
            try GenerationSchema(root: root, dependencies: [])
        } throws: { error in
            guard case .duplicateProperty(let schema, let property, _) = error as? GenerationSchema.SchemaError else { return false }
            return schema == "Inner" && property == "x"
        }
    }

    @Test func emptyChoicesThrow() {
        for empty in [
            DynamicGenerationSchema(name: "Shape", anyOf: [DynamicGenerationSchema]()),
            DynamicGenerationSchema(name: "Shape", anyOf: [String]()),
        ] {
            let root = DynamicGenerationSchema(name: "Args", properties: [.init(name: "shape", schema: empty)])
            #expect {
                try GenerationSchema(root: root, dependencies: [])
            } throws: { error in
                guard case .emptyTypeChoices(let schema, _) = error as? GenerationSchema.SchemaError else { return false }
                return schema == "Shape"
            }
        }
    }

    @Test func twoDifferentTypesWithOneNameThrow() {
        let a = DynamicGenerationSchema(name: "Item", properties: [.init(name: "id", schema: .init(type: Int.self))])
        let b = DynamicGenerationSchema(name: "Item", properties: [.init(name: "name", schema: .init(type: String.self))])
        let root = DynamicGenerationSchema(name: "Args", properties: [.init(name: "a", schema: a), .init(name: "b", schema: b)])
        #expect {
            try GenerationSchema(root: root, dependencies: [])
        } throws: { error in
            guard case .duplicateType(let schema, let type, _) = error as? GenerationSchema.SchemaError else { return false }
            return schema == "Args" && type == "Item"
        }
        // A dependency that clashes with a nested type, and one named like the root, clash too.
        #expect(throws: GenerationSchema.SchemaError.self) {
            try GenerationSchema(root: DynamicGenerationSchema(name: "Args", properties: [.init(name: "a", schema: a)]), dependencies: [b])
        }
        #expect(throws: GenerationSchema.SchemaError.self) {
            try GenerationSchema(
                root: DynamicGenerationSchema(name: "Args", properties: []),
                dependencies: [DynamicGenerationSchema(name: "Args", anyOf: ["x"])])
        }
    }

    @Test func theSameTypeUsedTwiceIsOneDefinition() throws {
        let point = DynamicGenerationSchema(name: "Point", properties: [.init(name: "x", schema: .init(type: Double.self))])
        let root = DynamicGenerationSchema(
            name: "Line", properties: [.init(name: "from", schema: point), .init(name: "to", schema: point)])
        let json = try encodeSorted(try GenerationSchema(root: root, dependencies: [point]))
        #expect(
            json
                == ##"{"$defs":{"Point":{"additionalProperties":false,"properties":{"x":{"type":"number"}},"required":["x"],"title":"Point","type":"object","x-order":["x"]}},"additionalProperties":false,"properties":{"from":{"$ref":"#/$defs/Point"},"to":{"$ref":"#/$defs/Point"}},"required":["from","to"],"title":"Line","type":"object","x-order":["from","to"]}"##
        )
    }

    @Test func schemaErrorsDescribeThemselves() {
        let error = GenerationSchema.SchemaError.undefinedReferences(
            schema: "Trip", references: ["Place"], context: .init(debugDescription: "x"))
        #expect(error.errorDescription?.contains("Place") == true)
        #expect(error.recoverySuggestion != nil)
    }

    // MARK: JSON form (golden strings)

    @Test func objectWithOptionalProperty() throws {
        let schema = try GenerationSchema(
            root: DynamicGenerationSchema(
                name: "Search", description: "Search arguments",
                properties: [
                    .init(name: "query", description: "Text to find", schema: .init(type: String.self)),
                    .init(name: "limit", schema: .init(type: Int.self, guides: [.range(1...10)]), isOptional: true),
                    .init(name: "exact", schema: .init(type: Bool.self), isOptional: true),
                    .init(name: "score", schema: .init(type: Double.self, guides: [.minimum(0.5)])),
                ]), dependencies: [])
        #expect(
            try encodeSorted(schema)
                == ##"{"additionalProperties":false,"description":"Search arguments","properties":{"exact":{"type":"boolean"},"limit":{"maximum":10,"minimum":1,"type":"integer"},"query":{"description":"Text to find","type":"string"},"score":{"minimum":0.5,"type":"number"}},"required":["query","score"],"title":"Search","type":"object","x-order":["query","limit","exact","score"]}"##
        )
    }

    @Test func stringChoicesConstantsAndPatterns() throws {
        let schema = try GenerationSchema(
            root: DynamicGenerationSchema(
                name: "Args",
                properties: [
                    .init(
                        name: "unit",
                        schema: DynamicGenerationSchema(name: "Unit", description: "Temperature unit", anyOf: ["celsius", "fahrenheit"])),
                    .init(name: "mode", schema: .init(type: String.self, guides: [.anyOf(["fast", "exact"])])),
                    .init(name: "kind", schema: .init(type: String.self, guides: [.constant("forecast")])),
                    .init(name: "code", schema: .init(type: String.self, guides: [.pattern(#/[A-Z]{3}/#)])),
                ]), dependencies: [])
        #expect(
            try encodeSorted(schema)
                == ##"{"$defs":{"Unit":{"description":"Temperature unit","enum":["celsius","fahrenheit"],"title":"Unit","type":"string"}},"additionalProperties":false,"properties":{"code":{"pattern":"[A-Z]{3}","type":"string"},"kind":{"const":"forecast"},"mode":{"enum":["fast","exact"],"type":"string"},"unit":{"$ref":"#/$defs/Unit"}},"required":["unit","mode","kind","code"],"title":"Args","type":"object","x-order":["unit","mode","kind","code"]}"##
        )
    }

    @Test func arraysWithGuides() throws {
        let schema = try GenerationSchema(
            root: DynamicGenerationSchema(
                name: "Args",
                properties: [
                    .init(
                        name: "tags",
                        schema: DynamicGenerationSchema(arrayOf: .init(type: String.self), minimumElements: 1, maximumElements: 3)),
                    .init(name: "pair", schema: .init(type: [Int].self, guides: [.count(2), .element(.minimum(0))])),
                    .init(name: "any", schema: DynamicGenerationSchema(arrayOf: .init(type: Decimal.self, guides: [.maximum(9.5)]))),
                ]), dependencies: [])
        #expect(
            try encodeSorted(schema)
                == ##"{"additionalProperties":false,"properties":{"any":{"items":{"maximum":9.5,"type":"number"},"type":"array"},"pair":{"items":{"minimum":0,"type":"integer"},"maxItems":2,"minItems":2,"type":"array"},"tags":{"items":{"type":"string"},"maxItems":3,"minItems":1,"type":"array"}},"required":["tags","pair","any"],"title":"Args","type":"object","x-order":["tags","pair","any"]}"##
        )
    }

    @Test func referencesAndDefinitions() throws {
        let point = DynamicGenerationSchema(
            name: "Point", description: "A place",
            properties: [
                .init(name: "lat", schema: .init(type: Double.self, guides: [.range(-90...90)])),
                .init(name: "lon", schema: .init(type: Double.self)),
            ])
        let shape = DynamicGenerationSchema(
            name: "Shape", anyOf: [DynamicGenerationSchema(referenceTo: "Point"), .init(type: String.self)])
        let root = DynamicGenerationSchema(
            name: "Route",
            properties: [
                .init(name: "stops", schema: DynamicGenerationSchema(arrayOf: DynamicGenerationSchema(referenceTo: "Point"))),
                .init(name: "area", schema: shape, isOptional: true),
                .init(
                    name: "owner",
                    schema: DynamicGenerationSchema(name: "Owner", properties: [.init(name: "name", schema: .init(type: String.self))])),
            ])
        let schema = try GenerationSchema(root: root, dependencies: [point])
        #expect(
            try encodeSorted(schema)
                == ##"{"$defs":{"Owner":{"additionalProperties":false,"properties":{"name":{"type":"string"}},"required":["name"],"title":"Owner","type":"object","x-order":["name"]},"Point":{"additionalProperties":false,"description":"A place","properties":{"lat":{"maximum":90,"minimum":-90,"type":"number"},"lon":{"type":"number"}},"required":["lat","lon"],"title":"Point","type":"object","x-order":["lat","lon"]},"Shape":{"anyOf":[{"$ref":"#/$defs/Point"},{"type":"string"}],"title":"Shape"}},"additionalProperties":false,"properties":{"area":{"$ref":"#/$defs/Shape"},"owner":{"$ref":"#/$defs/Owner"},"stops":{"items":{"$ref":"#/$defs/Point"},"type":"array"}},"required":["stops","owner"],"title":"Route","type":"object","x-order":["stops","area","owner"]}"##
        )
    }

    @Test func emptyObjectAndGenerableSchemas() throws {
        #expect(
            try encodeSorted(try objectSchema("no_arguments"))
                == ##"{"additionalProperties":false,"properties":{},"required":[],"title":"no_arguments","type":"object","x-order":[]}"##)
        #expect(try encodeSorted(String.generationSchema) == ##"{"type":"string"}"##)
        #expect(try encodeSorted([Int].generationSchema) == ##"{"items":{"type":"integer"},"type":"array"}"##)
        let typed = GenerationSchema(
            type: GeneratedContent.self, description: "Typed",
            properties: [
                GenerationSchema.Property(name: "name", type: String.self),
                GenerationSchema.Property(name: "age", type: Int?.self, guides: [.minimum(0)]),
            ])
        #expect(
            try encodeSorted(typed)
                == ##"{"additionalProperties":false,"description":"Typed","properties":{"age":{"minimum":0,"type":"integer"},"name":{"type":"string"}},"required":["name"],"title":"GeneratedContent","type":"object","x-order":["name","age"]}"##
        )
    }

    @Test func decodesItsOwnJSONForm() throws {
        let point = DynamicGenerationSchema(
            name: "Point", properties: [.init(name: "x", schema: .init(type: Int.self, guides: [.maximum(3)]))])
        let root = DynamicGenerationSchema(
            name: "Args",
            properties: [
                .init(name: "points", schema: DynamicGenerationSchema(arrayOf: point, minimumElements: 1)),
                .init(name: "unit", schema: DynamicGenerationSchema(name: "Unit", anyOf: ["a", "b"]), isOptional: true),
                .init(name: "code", schema: .init(type: String.self, guides: [.pattern(#/\d+/#)])),
            ])
        let schema = try GenerationSchema(root: root, dependencies: [])
        let data = try JSONEncoder().encode(schema)
        let decoded = try JSONDecoder().decode(GenerationSchema.self, from: data)
        #expect(try encodeSorted(decoded) == encodeSorted(schema))
        #expect(decoded.violations(in: try GeneratedContent(json: ##"{"points":[{"x":4}],"code":"12"}"##)).map(\.path) == ["/points/0/x"])
    }

    @Test func decodingRejectsOtherDialects() {
        let decoder = JSONDecoder()
        // An object without x-order, as Apple's decoder rejects it.
        #expect(throws: DecodingError.self) {
            try decoder.decode(
                GenerationSchema.self,
                from: Data(##"{"type":"object","title":"A","properties":{},"additionalProperties":false,"required":[]}"##.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(GenerationSchema.self, from: Data(##"{"allOf":[{"type":"string"}]}"##.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder.decode(GenerationSchema.self, from: Data(##"{"type":["string","null"]}"##.utf8))
        }
    }

    // MARK: Validation

    @Test func validationNamesThePath() throws {
        let point = DynamicGenerationSchema(
            name: "Point",
            properties: [
                .init(name: "lat", schema: .init(type: Double.self, guides: [.range(-90...90)])),
                .init(name: "label", schema: .init(type: String.self), isOptional: true),
            ])
        let root = DynamicGenerationSchema(
            name: "Args",
            properties: [
                .init(name: "city", schema: .init(type: String.self)),
                .init(name: "days", schema: .init(type: Int.self, guides: [.range(1...14)]), isOptional: true),
                .init(name: "unit", schema: DynamicGenerationSchema(name: "Unit", anyOf: ["c", "f"])),
                .init(name: "stops", schema: DynamicGenerationSchema(arrayOf: point, maximumElements: 2)),
                .init(name: "code", schema: .init(type: String.self, guides: [.pattern(#/[A-Z]{3}/#)]), isOptional: true),
            ])
        let schema = try GenerationSchema(root: root, dependencies: [])
        let good = try GeneratedContent(json: ##"{"city":"Paris","days":3,"unit":"c","stops":[{"lat":48.8}],"code":"CDG"}"##)
        #expect(schema.violations(in: good).isEmpty)
        let optionalNull = try GeneratedContent(json: ##"{"city":"Paris","days":null,"unit":"f","stops":[]}"##)
        #expect(schema.violations(in: optionalNull).isEmpty)

        let bad = try GeneratedContent(
            json: ##"{"days":2.5,"unit":"k","stops":[{"lat":100,"extra":1},{"lat":"x"},{"lat":0}],"code":"cdg","zzz":true}"##)
        let found = schema.violations(in: bad).map(\.description)
        #expect(
            found == [
                "(root): missing required property 'city'",
                "/days: expected an integer, got 2.5",
                "/unit: \"k\" is not one of \"c\", \"f\"",
                "/stops: expected at most 2 elements, got 3",
                "/stops/0/lat: 100 is greater than the maximum 90",
                "/stops/0: unexpected property 'extra' (Point allows lat, label)",
                "/stops/1/lat: expected a number, got a string",
                "/code: \"cdg\" does not match the pattern [A-Z]{3}",
                "(root): unexpected property 'zzz' (Args allows city, days, unit, stops, code)",
            ])
        #expect(
            schema.violations(in: GeneratedContent("just text")).map(\.description) == ["(root): expected an object (Args), got a string"])
    }

    @Test func anyOfValidation() throws {
        let point = DynamicGenerationSchema(name: "Point", properties: [.init(name: "x", schema: .init(type: Int.self))])
        let root = DynamicGenerationSchema(
            name: "Args",
            properties: [
                .init(name: "shape", schema: DynamicGenerationSchema(name: "Shape", anyOf: [point, .init(type: String.self)]))
            ])
        let schema = try GenerationSchema(root: root, dependencies: [])
        #expect(schema.violations(in: try GeneratedContent(json: ##"{"shape":{"x":1}}"##)).isEmpty)
        #expect(schema.violations(in: try GeneratedContent(json: ##"{"shape":"round"}"##)).isEmpty)
        #expect(schema.violations(in: try GeneratedContent(json: ##"{"shape":true}"##)).map(\.path) == ["/shape"])
    }
}
#endif
