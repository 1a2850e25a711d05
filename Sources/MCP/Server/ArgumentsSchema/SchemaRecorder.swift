internal import MCPCore

/// Records the shape of a `Decodable` type by running its `init(from:)` against
/// ``RecordingDecoder``, which answers every question with a placeholder and writes down
/// what was asked into a tree of ``ShapeNode``s.
///
/// One recorder makes one recording, a *round*. ``ToolArgumentsSchema`` makes several, each
/// with other placeholders (see ``round``), and compares them: a decoding that reads
/// different members for different values is refused, not described by one of its branches.
///
/// The recorder never trusts the decoding to stop on its own: its containers end after one
/// array element, recursion stops at ``ToolArgumentsSchema/recursionLevels``, nesting at
/// ``ToolArgumentsSchema/maximumDepth`` types, and a recording at ``stepBudget`` questions.
/// The first refusal is kept (``failure``): a decoding that catches the recorder's error and
/// goes on is still refused, and from then on every container is empty, so no loop of the
/// decoding's can go on feeding on answers.
///
/// A class, used by one recording on one task.
final class SchemaRecorder {
    /// What a value's recording gave.
    enum Outcome<Value> {
        /// A placeholder value of the type, for the decoding to go on with.
        case value(Value)
        /// A recursive type at the depth where the schema stops describing it: there is no
        /// value, and only an optional, an array or a dictionary can do without one.
        case cutOff
    }

    /// How many questions one recording may ask before it is refused as too complex.
    static let stepBudget = 20_000

    /// Which recording this is. Round 0 gives optionals, `false`, `"a"`, `1` and each enum's
    /// first case; round 1 gives `nil`, `true`, `"b"`, `2` and the second case; round *n*
    /// the case at *n*, so that every case of an enum is tried once.
    let round: Int
    /// The first refusal, kept even if the decoding caught it.
    private(set) var failure: ToolArgumentsSchemaError?
    /// The most cases of any `CaseIterable` enum met, so that there are enough rounds to try each.
    var largestCaseCount = 0
    private var steps = 0
    /// The types whose `init(from:)` is running, outermost first.
    private var typeStack: [ObjectIdentifier] = []

    init(round: Int) {
        self.round = round
    }

    // MARK: Placeholders

    /// Whether `decodeIfPresent` gives a value (else `nil`) and `contains` says yes.
    var presentsOptionals: Bool { round % 2 == 0 }
    /// The placeholder `Bool`.
    var flag: Bool { round % 2 == 1 }
    /// The placeholder `String`.
    var text: String { round % 2 == 0 ? "a" : "b" }
    /// The placeholder number: positive and small, so that it fits every integer type.
    var number: Int { 1 + round % 2 }

    // MARK: Refusals

    /// Whether the recording has been refused: containers then report nothing more.
    var isStopped: Bool { failure != nil }

    /// Keeps `error` as the recording's refusal unless there is one already, and returns the
    /// refusal to throw.
    func fail(_ error: ToolArgumentsSchemaError) -> ToolArgumentsSchemaError {
        if let failure { return failure }
        failure = error
        return error
    }

    /// Runs `body`, keeping any error it throws as the recording's refusal.
    func attempt<Result>(_ body: () throws(ToolArgumentsSchemaError) -> Result) throws(ToolArgumentsSchemaError) -> Result {
        do {
            return try body()
        } catch {
            throw fail(error)
        }
    }

    /// Counts one question of the decoding's; throws once the recording is refused or the
    /// budget is spent.
    func step(at node: ShapeNode) throws(ToolArgumentsSchemaError) {
        if let failure { throw failure }
        steps += 1
        guard steps <= Self.stepBudget else {
            throw fail(
                .tooComplex(
                    at: node.location,
                    "decoding it asks more than \(Self.stepBudget) questions (its types nest or recur too widely for a useful schema). Register the tool with an explicit inputSchema."
                ))
        }
    }

    // MARK: Recording

    /// Records `type` into `node` and gives a placeholder value of it.
    func record<T: Decodable>(_ type: T.Type, into node: ShapeNode, codingPath: [any CodingKey]) throws -> Outcome<T> {
        try step(at: node)
        if let known = try recordKnown(type, into: node, codingPath: codingPath) {
            return known
        }
        return try recordStructure(type, into: node, codingPath: codingPath)
    }

    /// Records a type by running its own `init(from:)`.
    private func recordStructure<T: Decodable>(_ type: T.Type, into node: ShapeNode, codingPath: [any CodingKey]) throws -> Outcome<T> {
        let identifier = ObjectIdentifier(T.self)
        let name = String(describing: T.self)
        if typeStack.count(where: { $0 == identifier }) >= ToolArgumentsSchema.recursionLevels {
            try attempt { () throws(ToolArgumentsSchemaError) in try node.cutOff(typeName: name) }
            return .cutOff
        }
        guard typeStack.count < ToolArgumentsSchema.maximumDepth else {
            throw fail(
                .tooComplex(
                    at: node.location,
                    "its types nest more than \(ToolArgumentsSchema.maximumDepth) deep. Register the tool with an explicit inputSchema."))
        }
        typeStack.append(identifier)
        defer { typeStack.removeLast() }
        let value: T
        do {
            value = try T(from: RecordingDecoder(recorder: self, node: node, codingPath: codingPath))
        } catch {
            if let failure { throw failure }
            throw fail(refusal(for: error, of: T.self, at: node))
        }
        // A refusal the decoding caught and went on from still stands.
        if let failure { throw failure }
        if let described = T.self as? any ToolArguments.Type {
            try describe(node, with: described.argumentDescriptions, of: name)
        }
        return .value(value)
    }

    /// The refusal for an error a type's own `init(from:)` threw on the placeholders.
    private func refusal<T>(for error: any Error, of type: T.Type, at node: ShapeNode) -> ToolArgumentsSchemaError {
        let name = String(describing: T.self)
        var location = node.location
        var reason = String(describing: error)
        if let decodingError = error as? DecodingError {
            location = decodingError.jsonPointer
            reason = decodingError.context.debugDescription
        }
        if T.self is any RawRepresentable.Type, !(T.self is any CaseIterable.Type) {
            return .dependsOnValues(
                at: location,
                "\(name) is RawRepresentable but not CaseIterable, so its values cannot be listed, and it refused the placeholder \"\(text)\" (\(reason)). Make \(name) CaseIterable to get an enum of its raw values, or register the tool with an explicit inputSchema."
            )
        }
        return .dependsOnValues(
            at: location,
            "\(name).init(from:) threw on a placeholder value (\(reason)): it checks or branches on values the recorder cannot see. Register the tool with an explicit inputSchema."
        )
    }

    /// Gives the members of `node` the descriptions a ``ToolArguments`` type has for them.
    private func describe(_ node: ShapeNode, with descriptions: [String: String], of name: String) throws(ToolArgumentsSchemaError) {
        guard !descriptions.isEmpty else { return }
        guard case .object(let members) = node.kind else {
            throw fail(
                .unknownMember(
                    at: node.location,
                    "\(name).argumentDescriptions describes members, but \(name) decodes as \(node.kindDescription), which has none."))
        }
        for key in descriptions.keys.sorted() {
            guard let member = members.existingMember(key) else {
                let known = members.names.map { "\"\($0)\"" }.joined(separator: ", ")
                throw fail(
                    .unknownMember(
                        at: JSONPointer(tokens: node.path + [key]),
                        "\(name).argumentDescriptions describes \"\(key)\", which is not a member it decodes (\(known.isEmpty ? "none" : known)). Key descriptions by the member's name in JSON, its coding key."
                    ))
            }
            member.description = descriptions[key]
        }
    }

    /// `value` as `T`, which it always is; a refusal rather than a crash if it were not.
    func cast<T>(_ value: Any, to type: T.Type, at node: ShapeNode) throws(ToolArgumentsSchemaError) -> T {
        guard let typed = value as? T else {
            throw fail(
                .unsupportedType(
                    at: node.location,
                    "the recorder could not make a placeholder \(T.self). Register the tool with an explicit inputSchema."))
        }
        return typed
    }

    /// The refusal for a recursive type reached where a value is required.
    func requiredRecursion<T>(of type: T.Type, at node: ShapeNode) -> ToolArgumentsSchemaError {
        fail(
            .unsupportedType(
                at: node.location,
                "\(T.self) contains itself through a member that is not optional, an array or a dictionary, so no finite input decodes as it. Make that member optional, or register the tool with an explicit inputSchema."
            ))
    }
}
