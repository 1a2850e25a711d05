// ECMARegex: the compiler, from a syntax tree to a backtracking program.

/// One step of a compiled pattern.
enum Instruction: Sendable, Hashable {
    case scalar(Unicode.Scalar)
    case dot
    case characterClass(Int)
    /// Try `first`; on failure, resume at `second`.
    case split(first: Int, second: Int)
    case jump(Int)
    case save(slot: Int)
    case setRegister(Int)
    /// Fails when the position has not moved since the register was set (ECMA's empty-loop rule).
    case requireProgress(Int)
    case lineStart
    case lineEnd
    case wordBoundary(negated: Bool)
    case lookaround(Int)
    case backReference(Int)
    case match
}

/// A lookahead or lookbehind: where its program starts, which way it looks, whether it is negated.
struct Lookaround: Sendable, Hashable {
    var start: Int
    var ahead: Bool
    var negated: Bool
}

/// Compiles a ``RegexNode`` tree to ``Instruction``s.
struct RegexCompiler {
    let limit: Int
    var program: [Instruction] = []
    var classes: [CharacterClass]
    var lookarounds: [Lookaround] = []
    var registerCount = 0
    var deferred: [(RegexNode, Int)] = []

    init(limit: Int, classes: [CharacterClass]) {
        self.limit = limit
        self.classes = classes
    }

    mutating func append(_ instruction: Instruction) {
        program.append(instruction)
    }

    mutating func emit(_ node: RegexNode, names: [String: Int]) throws(ECMARegex.SyntaxError) {
        try emitNode(node, names: names)
        // Lookaround bodies are compiled after the main program, each ending in `match`.
        var index = 0
        while index < deferred.count {
            let (body, lookIndex) = deferred[index]
            index += 1
            append(.match)  // Terminates whatever precedes.
            lookarounds[lookIndex].start = program.count
            try emitNode(body, names: names)
            append(.match)
        }
    }

    mutating func check() throws(ECMARegex.SyntaxError) {
        if program.count > limit {
            throw ECMARegex.SyntaxError(message: "pattern compiles to more than \(limit) instructions")
        }
    }

    mutating func emitNode(_ node: RegexNode, names: [String: Int]) throws(ECMARegex.SyntaxError) {
        try check()
        switch node {
        case .empty: break
        case .scalar(let s): append(.scalar(s))
        case .dot: append(.dot)
        case .characterClass(let index): append(.characterClass(index))
        case .sequence(let items):
            for item in items { try emitNode(item, names: names) }
        case .alternation(let branches):
            var jumps: [Int] = []
            for (offset, branch) in branches.enumerated() {
                if offset < branches.count - 1 {
                    let split = program.count
                    append(.split(first: split + 1, second: -1))
                    try emitNode(branch, names: names)
                    jumps.append(program.count)
                    append(.jump(-1))
                    program[split] = .split(first: split + 1, second: program.count)
                } else {
                    try emitNode(branch, names: names)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .group(let inner, let capture):
            if let capture { append(.save(slot: capture * 2)) }
            try emitNode(inner, names: names)
            if let capture { append(.save(slot: capture * 2 + 1)) }
        case .quantified(let inner, let min, let max, let greedy):
            try emitQuantified(inner, min: min, max: max, greedy: greedy, names: names)
        case .lineStart: append(.lineStart)
        case .lineEnd: append(.lineEnd)
        case .wordBoundary(let negated): append(.wordBoundary(negated: negated))
        case .lookaround(let body, let ahead, let negated):
            lookarounds.append(Lookaround(start: -1, ahead: ahead, negated: negated))
            deferred.append((body, lookarounds.count - 1))
            append(.lookaround(lookarounds.count - 1))
        case .backReference(let number): append(.backReference(number))
        case .namedBackReference(let name): append(.backReference(names[name] ?? 0))
        }
    }

    mutating func emitQuantified(
        _ inner: RegexNode, min: Int, max: Int?, greedy: Bool, names: [String: Int]
    ) throws(ECMARegex.SyntaxError) {
        if min > limit || (max ?? 0) > limit {
            throw ECMARegex.SyntaxError(message: "quantifier bound exceeds \(limit)")
        }
        for _ in 0..<min {
            try emitNode(inner, names: names)
            try check()
        }
        if let max {
            // Optional copies: each one may be skipped, and skipping one skips the rest.
            var exits: [Int] = []
            for _ in min..<max {
                let split = program.count
                append(.split(first: -1, second: -1))
                exits.append(split)
                let register = registerCount
                registerCount += 1
                append(.setRegister(register))
                try emitNode(inner, names: names)
                append(.requireProgress(register))
                try check()
            }
            let end = program.count
            for split in exits {
                program[split] = greedy ? .split(first: split + 1, second: end) : .split(first: end, second: split + 1)
            }
        } else {
            let register = registerCount
            registerCount += 1
            let loop = program.count
            append(.split(first: -1, second: -1))
            append(.setRegister(register))
            try emitNode(inner, names: names)
            append(.requireProgress(register))
            append(.jump(loop))
            let end = program.count
            program[loop] = greedy ? .split(first: loop + 1, second: end) : .split(first: end, second: loop + 1)
        }
    }
}
