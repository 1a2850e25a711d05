import JSONCore
import JSONSchema
import Testing

/// One keyword family's failure: the schema, an invalid instance and the first error expected.
struct ErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var schema: String
    var instance: String
    var instanceLocation: String
    var keywordLocation: String
    var keyword: String
    var message: String

    var testDescription: String { name }
}

let errorCases: [ErrorCase] = [
    ErrorCase(
        name: "type", schema: #"{"properties":{"count":{"type":"integer"}}}"#, instance: #"{"count":"3"}"#,
        instanceLocation: "/count", keywordLocation: "/properties/count/type", keyword: "type",
        message: #"expected integer, found string "3""#),
    ErrorCase(
        name: "required", schema: #"{"type":"object","required":["query"]}"#, instance: "{}",
        instanceLocation: "", keywordLocation: "/required", keyword: "required",
        message: #"missing required property "query""#),
    ErrorCase(
        name: "enum", schema: #"{"enum":["a","b"]}"#, instance: #""c""#,
        instanceLocation: "", keywordLocation: "/enum", keyword: "enum",
        message: #"string "c" is not one of the allowed values: "a", "b""#),
    ErrorCase(
        name: "const", schema: #"{"const":3}"#, instance: "4",
        instanceLocation: "", keywordLocation: "/const", keyword: "const",
        message: "expected exactly 3, found integer 4"),
    ErrorCase(
        name: "minimum", schema: #"{"minimum":1}"#, instance: "0",
        instanceLocation: "", keywordLocation: "/minimum", keyword: "minimum",
        message: "0 is less than the minimum 1"),
    ErrorCase(
        name: "exclusiveMaximum", schema: #"{"exclusiveMaximum":1.5}"#, instance: "1.5",
        instanceLocation: "", keywordLocation: "/exclusiveMaximum", keyword: "exclusiveMaximum",
        message: "1.5 must be less than 1.5"),
    ErrorCase(
        name: "multipleOf", schema: #"{"multipleOf":2}"#, instance: "3",
        instanceLocation: "", keywordLocation: "/multipleOf", keyword: "multipleOf",
        message: "3 is not a multiple of 2"),
    ErrorCase(
        name: "minLength", schema: #"{"minLength":2}"#, instance: #""💩""#,
        instanceLocation: "", keywordLocation: "/minLength", keyword: "minLength",
        message: "string is 1 character long, shorter than the minimum length 2"),
    ErrorCase(
        name: "pattern", schema: #"{"properties":{"id":{"pattern":"^[a-z]+$"}}}"#, instance: #"{"id":"A1"}"#,
        instanceLocation: "/id", keywordLocation: "/properties/id/pattern", keyword: "pattern",
        message: #"string "A1" does not match the pattern "^[a-z]+$""#),
    ErrorCase(
        name: "additionalProperties", schema: #"{"properties":{"a":{}},"additionalProperties":false}"#,
        instance: #"{"a":1,"b":2}"#, instanceLocation: "/b", keywordLocation: "/additionalProperties",
        keyword: "additionalProperties", message: #"property "b" is not allowed (no schema declares it)"#),
    ErrorCase(
        name: "items", schema: #"{"items":{"type":"string"}}"#, instance: #"["a",2]"#,
        instanceLocation: "/1", keywordLocation: "/items/type", keyword: "type",
        message: "expected string, found integer 2"),
    ErrorCase(
        name: "prefixItems", schema: #"{"prefixItems":[{"type":"string"}],"items":false}"#, instance: #"["a",2]"#,
        instanceLocation: "", keywordLocation: "/items", keyword: "items",
        message: "array has 2 items; at most 1 are allowed"),
    ErrorCase(
        name: "minItems", schema: #"{"minItems":2}"#, instance: "[1]",
        instanceLocation: "", keywordLocation: "/minItems", keyword: "minItems",
        message: "array has 1 item, fewer than the minimum 2"),
    ErrorCase(
        name: "uniqueItems", schema: #"{"uniqueItems":true}"#, instance: "[1, 2, 1.0]",
        instanceLocation: "", keywordLocation: "/uniqueItems", keyword: "uniqueItems",
        message: "items 0 and 2 are equal; every item must be unique"),
    ErrorCase(
        name: "contains", schema: #"{"contains":{"type":"string"}}"#, instance: "[1]",
        instanceLocation: "", keywordLocation: "/contains", keyword: "contains",
        message: #"array has no item that matches the "contains" schema"#),
    ErrorCase(
        name: "maxContains", schema: #"{"contains":{"type":"string"},"maxContains":1}"#, instance: #"["a","b"]"#,
        instanceLocation: "", keywordLocation: "/maxContains", keyword: "maxContains",
        message: #"array has 2 items matching "contains", more than maxContains 1"#),
    ErrorCase(
        name: "maxProperties", schema: #"{"maxProperties":1}"#, instance: #"{"a":1,"b":2}"#,
        instanceLocation: "", keywordLocation: "/maxProperties", keyword: "maxProperties",
        message: "object has 2 properties, more than the maximum 1"),
    ErrorCase(
        name: "dependentRequired", schema: #"{"dependentRequired":{"card":["cvv"]}}"#, instance: #"{"card":"1"}"#,
        instanceLocation: "", keywordLocation: "/dependentRequired/card", keyword: "dependentRequired",
        message: #"property "cvv" is required when "card" is present"#),
    ErrorCase(
        name: "propertyNames", schema: #"{"propertyNames":{"maxLength":2}}"#, instance: #"{"abc":1}"#,
        instanceLocation: "/abc", keywordLocation: "/propertyNames/maxLength", keyword: "maxLength",
        message: "string is 3 characters long, longer than the maximum length 2"),
    ErrorCase(
        name: "anyOf", schema: #"{"anyOf":[{"type":"string"},{"type":"null"}]}"#, instance: "1",
        instanceLocation: "", keywordLocation: "/anyOf/0/type", keyword: "type",
        message: "expected string, found integer 1"),
    ErrorCase(
        name: "oneOf", schema: #"{"oneOf":[{"type":"integer"},{"minimum":0}]}"#, instance: "1",
        instanceLocation: "", keywordLocation: "/oneOf", keyword: "oneOf",
        message: "integer 1 matches alternatives 0 and 1 of oneOf; it must match exactly one"),
    ErrorCase(
        name: "not", schema: #"{"not":{"type":"null"}}"#, instance: "null",
        instanceLocation: "", keywordLocation: "/not", keyword: "not",
        message: #"null must not match the schema in "not""#),
    ErrorCase(
        name: "if-then", schema: #"{"if":{"minimum":10},"then":{"multipleOf":5}}"#, instance: "11",
        instanceLocation: "", keywordLocation: "/then/multipleOf", keyword: "multipleOf",
        message: "11 is not a multiple of 5"),
    ErrorCase(
        name: "$ref", schema: ##"{"$defs":{"n":{"type":"number"}},"properties":{"x":{"$ref":"#/$defs/n"}}}"##,
        instance: #"{"x":true}"#, instanceLocation: "/x", keywordLocation: "/properties/x/$ref/type",
        keyword: "type", message: "expected number, found boolean true"),
    ErrorCase(
        name: "false schema", schema: #"{"properties":{"x":false}}"#, instance: #"{"x":1}"#,
        instanceLocation: "/x", keywordLocation: "/properties/x", keyword: "x",
        message: "no value is allowed here (the schema is false)"),
    ErrorCase(
        name: "unevaluatedProperties",
        schema: #"{"allOf":[{"properties":{"a":{}}}],"unevaluatedProperties":false}"#, instance: #"{"a":1,"b":2}"#,
        instanceLocation: "/b", keywordLocation: "/unevaluatedProperties", keyword: "unevaluatedProperties",
        message: #"property "b" is not allowed (no schema evaluates it)"#),
    ErrorCase(
        name: "unevaluatedItems", schema: #"{"prefixItems":[{}],"unevaluatedItems":false}"#, instance: "[1,2]",
        instanceLocation: "/1", keywordLocation: "/unevaluatedItems", keyword: "unevaluatedItems",
        message: "item 1 is not allowed (no schema evaluates it)"),
]

@Suite("Validation errors")
struct ValidationErrorTests {
    @Test("names the instance and keyword locations", arguments: errorCases)
    func locations(_ example: ErrorCase) throws {
        let schema = try JSONSchema(parsing: example.schema)
        let result = schema.validate(try JSONValue(parsing: example.instance))
        #expect(!result.isValid)
        #expect(!schema.isValid(try JSONValue(parsing: example.instance)))
        let error = try #require(result.errors.first)
        #expect(error.instanceLocation == (try JSONPointer(parsing: example.instanceLocation)))
        #expect(error.keywordLocation == (try JSONPointer(parsing: example.keywordLocation)))
        #expect(error.keyword == example.keyword)
        #expect(error.message == example.message)
    }

    @Test("description reads as location, message and schema location")
    func description() throws {
        let schema = try JSONSchema(parsing: #"{"properties":{"count":{"type":"integer"}},"required":["query"]}"#)
        let result = schema.validate(["count": "3"])
        #expect(
            result.errors.map(\.description) == [
                #"(root): missing required property "query" (schema: /required)"#,
                #"/count: expected integer, found string "3" (schema: /properties/count/type)"#,
            ])
    }

    @Test("collects every failure, not only the first")
    func collectsAll() throws {
        let schema = try JSONSchema(
            parsing: #"{"type":"object","properties":{"a":{"type":"string"},"b":{"minimum":3}},"required":["c"]}"#)
        let result = schema.validate(["a": 1, "b": 2])
        #expect(Set(result.errors.map(\.keyword)) == ["type", "minimum", "required"])
    }

    @Test("a valid instance has no errors")
    func valid() throws {
        let schema = try JSONSchema(parsing: #"{"type":"object","properties":{"a":{"type":"string"}}}"#)
        let result = schema.validate(["a": "x"])
        #expect(result.isValid)
        #expect(result.errors.isEmpty)
        #expect(result.description == "valid")
    }
}

@Suite("Keyword semantics")
struct KeywordSemanticsTests {
    @Test("minLength and maxLength count code points")
    func codePoints() throws {
        let schema = try JSONSchema(parsing: #"{"minLength":1,"maxLength":1}"#)
        #expect(schema.isValid("💩"))
        #expect(schema.isValid("é"))  // One precomposed scalar.
        #expect(!schema.isValid("e\u{301}"))  // Two scalars, one grapheme.
        #expect(!schema.isValid(""))
    }

    @Test("integer accepts a double with an integral value")
    func integralDouble() throws {
        let schema = try JSONSchema(parsing: #"{"type":"integer"}"#)
        #expect(schema.isValid(.double(1.0)))
        #expect(schema.isValid(.int(1)))
        #expect(!schema.isValid(.double(1.5)))
    }

    @Test("const and enum compare numbers by value")
    func numericEquality() throws {
        #expect(try JSONSchema(parsing: #"{"const":1}"#).isValid(.double(1.0)))
        #expect(try JSONSchema(parsing: #"{"const":1.0}"#).isValid(.int(1)))
        #expect(try JSONSchema(parsing: #"{"enum":[[1],{"a":2}]}"#).isValid(["a": .double(2.0)]))
        #expect(!(try JSONSchema(parsing: #"{"enum":[1]}"#).isValid(true)))
    }

    @Test("strings compare by code points, not canonical equivalence")
    func stringEquality() throws {
        let schema = try JSONSchema(.object(["const": .string("\u{E9}")]))
        #expect(schema.isValid(.string("\u{E9}")))
        #expect(!schema.isValid(.string("e\u{301}")))
        let unique = try JSONSchema(parsing: #"{"uniqueItems":true}"#)
        #expect(unique.isValid(.array([.string("\u{E9}"), .string("e\u{301}")])))
    }

    @Test("format is an annotation, never asserted")
    func format() throws {
        #expect(try JSONSchema(parsing: #"{"format":"email"}"#).isValid("not an email"))
    }

    @Test("pattern is a search, not a whole match")
    func unanchored() throws {
        let schema = try JSONSchema(parsing: #"{"pattern":"b+"}"#)
        #expect(schema.isValid("abbbc"))
        #expect(!schema.isValid("ac"))
    }

    @Test(
        "pattern follows ECMA-262",
        arguments: [
            (#"^\\d+$"#, "123", true), (#"^\\d+$"#, "١٢٣", false),  // \d is ASCII only.
            (#"^\\w+$"#, "abc_1", true), (#"^\\w+$"#, "é", false),
            (#"^\\p{L}+$"#, "héllo", true), (#"^\\p{Lu}"#, "Émile", true),
            (#"^.$"#, "💩", true), (#"^.$"#, "\n", false),
            (#"^abc$"#, "abc\n", false), (#"colou?r"#, "my color", true),
            (#"^(?<year>\\d{4})-\\k<year>$"#, "2024-2024", true), (#"^(a)\\1$"#, "ab", false),
            (#"(?<=\\$)\\d+"#, "$42", true), (#"(?<!\\$)\\b\\d+"#, "$42", false),
            (#"^[^]$"#, "\n", true), (#"^[]"#, "x", false), (#"^\\u0041\\u{1F4A9}$"#, "A💩", true),
            (#"^[\\s]$"#, "\u{A0}", true), (#"^x{2,3}$"#, "xxxx", false),
        ] as [(String, String, Bool)])
    func ecma(pattern: String, text: String, matches: Bool) throws {
        let schema = try JSONSchema(parsing: #"{"pattern":"\#(pattern)"}"#)
        #expect(schema.isValid(.string(text)) == matches, "\(pattern) on \(text.debugDescription)")
    }
}
