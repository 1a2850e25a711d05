public import JSONCore

/// A parsed JSON Schema, ready to validate instances.
///
/// Parsing resolves every local reference (`$ref`, `$dynamicRef`, `$anchor`, `$id`), compiles
/// every `pattern` once, and lays the schema out as a flat table of nodes, so validation does no
/// lookups by name and allocates nothing while an instance is valid. The value is immutable and
/// cheap to copy; share one across tasks freely.
///
/// ```swift
/// let schema = try JSONSchema([
///     "type": "object",
///     "properties": ["query": ["type": "string", "minLength": 1]],
///     "required": ["query"],
/// ])
/// let result = schema.validate(["count": "3"])
/// result.errors.first?.description   // "/: missing required property \"query\" (schema: /required)"
/// ```
///
/// The dialect is JSON Schema 2020-12 unless the root's `$schema` names draft-07 (or draft-06),
/// or ``Options/defaultDialect`` says otherwise. See <doc:SupportedKeywords> for what each
/// keyword does here.
public struct JSONSchema: Sendable, Hashable {
    /// The schema document as it was given.
    public let source: JSONValue
    /// The limits and defaults the schema was parsed with.
    public let options: Options
    let program: Program

    /// Parses `schema`, resolves its local references and compiles its patterns.
    ///
    /// - Throws: ``SchemaError`` when the schema is malformed (a keyword with a value of the
    ///   wrong type), refers to a document this package cannot see (a remote `$ref`), has a
    ///   pattern that is not an ECMA-262 regular expression, or is larger or deeper than
    ///   `options` allow.
    public init(_ schema: JSONValue, options: Options = Options()) throws(SchemaError) {
        self.source = schema
        self.options = options
        var compiler = SchemaCompiler(root: schema, options: options)
        self.program = try compiler.compile()
    }

    /// Parses a schema from JSON text.
    ///
    /// - Throws: ``SchemaError`` with reason ``SchemaError/Reason/notJSON`` when the text is not
    ///   JSON, otherwise as ``init(_:options:)``.
    public init(parsing text: String, options: Options = Options()) throws(SchemaError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw SchemaError(location: JSONPointer(), reason: .notJSON, message: "the schema is not JSON: \(error)")
        }
        try self.init(value, options: options)
    }

    /// The dialect the root schema is read in.
    public var dialect: Dialect { program.dialect }

    /// Validates `instance`, collecting every failure with its locations.
    ///
    /// An instance that is valid costs one pass with no allocation; only an invalid one is
    /// evaluated a second time to build the errors.
    public func validate(_ instance: JSONValue) -> ValidationResult {
        var fast = Evaluator(program: program, options: options, collecting: false)
        if fast.run(instance) {
            return ValidationResult(errors: [])
        }
        var full = Evaluator(program: program, options: options, collecting: true)
        let valid = full.run(instance)
        var errors = full.errors
        if errors.isEmpty && !valid {
            // Defensive: every failing path records an error, but never report "invalid" silently.
            errors.append(
                ValidationError(
                    instanceLocation: JSONPointer(), keywordLocation: JSONPointer(), keyword: "",
                    message: "the value does not match the schema"))
        }
        return ValidationResult(errors: valid ? [] : errors)
    }

    /// Whether `instance` is valid, without building any error.
    public func isValid(_ instance: JSONValue) -> Bool {
        var fast = Evaluator(program: program, options: options, collecting: false)
        return fast.run(instance)
    }

    public static func == (lhs: JSONSchema, rhs: JSONSchema) -> Bool {
        lhs.source == rhs.source && lhs.options == rhs.options
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(options)
    }
}

extension JSONSchema {
    /// A version of the JSON Schema specification.
    public struct Dialect: Sendable, Hashable, CustomStringConvertible {
        /// The meta-schema URI that names this dialect in `$schema`.
        public let uri: String
        let isDraft07: Bool

        /// JSON Schema 2020-12, the default (and the dialect MCP's `inputSchema` uses).
        public static let draft2020_12 = Dialect(uri: "https://json-schema.org/draft/2020-12/schema", isDraft07: false)
        /// JSON Schema draft-07 (also used for draft-06 schemas).
        public static let draft07 = Dialect(uri: "http://json-schema.org/draft-07/schema#", isDraft07: true)

        public var description: String { isDraft07 ? "draft-07" : "2020-12" }

        /// The dialect a `$schema` value names, or `nil` when it names none this package knows.
        static func named(_ uri: String) -> Dialect? {
            if uri.contains("draft-07") || uri.contains("draft-06") { return .draft07 }
            if uri.contains("2020-12") || uri.contains("2019-09") { return .draft2020_12 }
            return nil
        }
    }

    /// Defaults and limits for parsing and validating.
    ///
    /// The limits bound the cost of any schema and any instance: a hostile schema is refused at
    /// parse time or stops validating with an error, and never hangs or overflows the stack.
    public struct Options: Sendable, Hashable {
        /// The dialect used when the root has no `$schema` (or one this package does not know).
        public var defaultDialect: Dialect
        /// How deeply subschemas may nest inside each other.
        public var maximumDepth: Int
        /// How many subschemas one schema document may have.
        public var maximumSubschemas: Int
        /// How many evaluation steps one validation may take (one step per subschema applied,
        /// plus one per array element or object property visited by a keyword).
        public var maximumEvaluationSteps: Int
        /// How many subschemas may be in evaluation at once (the recursion depth).
        public var maximumEvaluationDepth: Int
        /// How many steps of the regular expression engine one `pattern` search may take.
        public var maximumPatternSteps: Int

        /// Creates options; the defaults suit tool schemas and their arguments.
        public init(
            defaultDialect: Dialect = .draft2020_12,
            maximumDepth: Int = 64,
            maximumSubschemas: Int = 10_000,
            maximumEvaluationSteps: Int = 1_000_000,
            maximumEvaluationDepth: Int = 128,
            maximumPatternSteps: Int = 100_000
        ) {
            self.defaultDialect = defaultDialect
            self.maximumDepth = maximumDepth
            self.maximumSubschemas = maximumSubschemas
            self.maximumEvaluationSteps = maximumEvaluationSteps
            self.maximumEvaluationDepth = maximumEvaluationDepth
            self.maximumPatternSteps = maximumPatternSteps
        }
    }
}

/// The outcome of validating an instance: valid, or the list of what is wrong.
public struct ValidationResult: Sendable, Hashable, CustomStringConvertible {
    /// Every failure found, in evaluation order; empty when the instance is valid.
    public var errors: [ValidationError]

    /// Creates a result from its errors (valid when there are none).
    public init(errors: [ValidationError]) {
        self.errors = errors
    }

    /// Whether the instance is valid.
    public var isValid: Bool { errors.isEmpty }

    /// One line per error, or `"valid"`.
    public var description: String {
        errors.isEmpty ? "valid" : errors.map(\.description).joined(separator: "\n")
    }
}

/// One reason an instance is invalid: where in the instance, which keyword, and what to fix.
public struct ValidationError: Sendable, Hashable, CustomStringConvertible {
    /// The location of the offending value in the instance (the root when empty).
    public var instanceLocation: JSONPointer
    /// The path through the schema to the keyword that failed, following `$ref`s the way the
    /// JSON Schema output format's `keywordLocation` does (e.g. `/properties/count/type`).
    public var keywordLocation: JSONPointer
    /// The keyword that failed, such as `"type"` or `"required"`.
    public var keyword: String
    /// What is wrong, in words, e.g. `expected integer, found string "3"`.
    public var message: String

    /// Creates an error.
    public init(instanceLocation: JSONPointer, keywordLocation: JSONPointer, keyword: String, message: String) {
        self.instanceLocation = instanceLocation
        self.keywordLocation = keywordLocation
        self.keyword = keyword
        self.message = message
    }

    /// `<instance location>: <message> (schema: <keyword location>)`, the root written `(root)`.
    public var description: String {
        let instance = instanceLocation.isRoot ? "(root)" : instanceLocation.description
        let keyword = keywordLocation.isRoot ? "(root)" : keywordLocation.description
        return "\(instance): \(message) (schema: \(keyword))"
    }
}

/// A schema that cannot be used: malformed, unresolvable or too large.
public struct SchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Where in the schema document the problem is.
    public var location: JSONPointer
    /// The kind of problem.
    public var reason: Reason
    /// What is wrong, in words.
    public var message: String

    /// Creates an error.
    public init(location: JSONPointer, reason: Reason, message: String) {
        self.location = location
        self.reason = reason
        self.message = message
    }

    /// `<location>: <message>`, the root written `/`.
    public var description: String {
        "\(location.isRoot ? "(root)" : location.description): \(message)"
    }

    /// A kind of schema problem; an open set (new kinds may be added).
    public struct Reason: Sendable, Hashable, CustomStringConvertible {
        /// A short identifier, such as `"unresolvedReference"`.
        public let code: String

        /// Creates a reason from its code.
        public init(code: String) { self.code = code }

        public var description: String { code }

        /// A keyword's value has the wrong type or is out of range (`"minLength": -1`).
        public static let invalidKeyword = Reason(code: "invalidKeyword")
        /// A `$ref` or `$dynamicRef` names a document or location that is not in this schema;
        /// remote documents are never fetched.
        public static let unresolvedReference = Reason(code: "unresolvedReference")
        /// A `pattern` or `patternProperties` key is not a supported ECMA-262 regular expression.
        public static let invalidPattern = Reason(code: "invalidPattern")
        /// The schema nests deeper, or has more subschemas, than ``JSONSchema/Options`` allow.
        public static let tooComplex = Reason(code: "tooComplex")
        /// The schema text is not JSON.
        public static let notJSON = Reason(code: "notJSON")
        /// The schema is neither an object nor a Boolean.
        public static let notASchema = Reason(code: "notASchema")
    }
}
