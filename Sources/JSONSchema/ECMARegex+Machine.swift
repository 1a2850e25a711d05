// ECMARegex: the backtracking machine that runs a program on a string.

/// Runs a compiled pattern on a string's scalars, backtracking.
struct Machine {
    let program: [Instruction]
    let classes: [CharacterClass]
    let lookarounds: [Lookaround]
    let input: [Unicode.Scalar]
    var budget: Int
    var slots: [Int]
    var registers: [Int]

    init(regex: ECMARegex, input: [Unicode.Scalar], budget: Int) {
        program = regex.program
        classes = regex.classes
        lookarounds = regex.lookarounds
        self.input = input
        self.budget = budget
        slots = Array(repeating: -1, count: (regex.captureCount + 1) * 2)
        registers = Array(repeating: -1, count: regex.registerCount)
    }

    private enum Frame {
        case resume(pc: Int, position: Int)
        case restoreSlot(Int, Int)
        case restoreRegister(Int, Int)
    }

    /// Runs from `pc` at `position`; `true` on a match (ending at `end` when given), `false`
    /// when none, `nil` when the budget ran out.
    mutating func run(pc startPC: Int, position startPosition: Int, end: Int?) -> Bool? {
        var stack: [Frame] = []
        var pc = startPC
        var position = startPosition
        while true {
            budget -= 1
            if budget < 0 { return nil }
            var failed = false
            switch program[pc] {
            case .scalar(let s):
                if position < input.count, input[position] == s {
                    position += 1
                    pc += 1
                } else {
                    failed = true
                }
            case .dot:
                if position < input.count, !isLineTerminator(input[position]) {
                    position += 1
                    pc += 1
                } else {
                    failed = true
                }
            case .characterClass(let index):
                if position < input.count, classes[index].contains(input[position]) {
                    position += 1
                    pc += 1
                } else {
                    failed = true
                }
            case .split(let first, let second):
                stack.append(.resume(pc: second, position: position))
                pc = first
            case .jump(let target):
                pc = target
            case .save(let slot):
                stack.append(.restoreSlot(slot, slots[slot]))
                slots[slot] = position
                pc += 1
            case .setRegister(let register):
                stack.append(.restoreRegister(register, registers[register]))
                registers[register] = position
                pc += 1
            case .requireProgress(let register):
                if registers[register] == position {
                    failed = true
                } else {
                    pc += 1
                }
            case .lineStart:
                if position == 0 { pc += 1 } else { failed = true }
            case .lineEnd:
                if position == input.count { pc += 1 } else { failed = true }
            case .wordBoundary(let negated):
                let before = position > 0 && isECMAWord(input[position - 1])
                let after = position < input.count && isECMAWord(input[position])
                if (before != after) != negated { pc += 1 } else { failed = true }
            case .lookaround(let index):
                let look = lookarounds[index]
                var matched = false
                if look.ahead {
                    var inner = self
                    guard let result = inner.run(pc: look.start, position: position, end: nil) else {
                        budget = inner.budget
                        return nil
                    }
                    budget = inner.budget
                    matched = result
                    if result && !look.negated { slots = inner.slots }
                } else {
                    var start = position
                    while start >= 0 && !matched {
                        var inner = self
                        guard let result = inner.run(pc: look.start, position: start, end: position) else {
                            budget = inner.budget
                            return nil
                        }
                        budget = inner.budget
                        if result {
                            matched = true
                            if !look.negated { slots = inner.slots }
                        }
                        start -= 1
                    }
                }
                if matched != look.negated { pc += 1 } else { failed = true }
            case .backReference(let number):
                let startSlot = number * 2
                if startSlot + 1 < slots.count, slots[startSlot] >= 0, slots[startSlot + 1] >= slots[startSlot] {
                    let length = slots[startSlot + 1] - slots[startSlot]
                    if position + length <= input.count
                        && input[position..<(position + length)] == input[slots[startSlot]..<slots[startSlot + 1]]
                    {
                        position += length
                        pc += 1
                    } else {
                        failed = true
                    }
                } else {
                    pc += 1  // A group that did not participate matches the empty string.
                }
            case .match:
                if let end, position != end {
                    failed = true
                } else {
                    return true
                }
            }
            if failed {
                var resumed = false
                while let frame = stack.popLast() {
                    switch frame {
                    case .resume(let nextPC, let nextPosition):
                        pc = nextPC
                        position = nextPosition
                        resumed = true
                    case .restoreSlot(let slot, let value):
                        slots[slot] = value
                    case .restoreRegister(let register, let value):
                        registers[register] = value
                    }
                    if resumed { break }
                }
                if !resumed { return false }
            }
        }
    }
}
