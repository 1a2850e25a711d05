// ChatCompletions: an OpenAI-compatible model behind FoundationModels' API.

/// Watches text as a model streams it and says when to cut it: a loop, or a run without words.
///
/// A synchronous state machine: ``feed(_:)`` takes each delta the server streams (about one
/// token) and returns ``Action/continue``, or ``Action/cut(_:)`` once the output is degenerate;
/// after a cut every feed returns the same cut. It holds a few kilobytes whatever the text's
/// length, and does at most 256 comparisons a character.
///
/// What is cut (thresholds chosen so that lists, tables, code with repeated structure, JSON
/// arrays of similar objects and number series pass; see the tests):
///
/// | The text ends with | Cut when |
/// |---|---|
/// | a unit of 1 to 4 characters repeated (`aaaa`, `\n\n`, `ha ha `, `0, 0, `) | the repetition covers 128 characters |
/// | a unit of 5 to 30 characters repeated (`hello `, `[aesbw]; `) | 8 repeats, covering 64 characters or more |
/// | a unit of 31 to 63 characters repeated (a sentence) | 5 repeats |
/// | a unit of 64 to 256 characters repeated (a paragraph) | 4 repeats |
/// | a sequence of 16 to 256 deltas, more than 256 characters, repeated (a loop with a longer unit) | 4 repeats |
/// | whitespace, punctuation and symbols | 256 characters in a row without a letter or digit |
///
/// A repetition is exact and back to back: the text ends with `u u u …` with nothing between
/// the units. A unit is held to the threshold of its smallest period (`abab…` is `ab`
/// repeated, never `abab`), so a short unit is not cut sooner as a multiple of itself.
/// Text a user asks to be repeated (a line written ten times) is cut too;
/// ``ChatCompletionsConfiguration/detectsDegenerateOutput`` turns the detector off.
struct DegenerateOutputDetector: Sendable {
    /// What to do after a delta.
    enum Action: Sendable, Equatable {
        /// Nothing degenerate so far.
        case `continue`
        /// Stop the request: the output is degenerate.
        case cut(DegenerateOutput)
    }

    /// The longest unit of repeated text looked for, in characters (Unicode scalars).
    static let longestUnit = 256
    /// The characters without a letter or digit that make a runaway.
    static let runawayLength = 256
    /// The shortest and longest sequences of deltas looked for as a token loop.
    static let tokenUnits = 16...256
    /// How many times a sequence of deltas must come back to back.
    static let tokenRepeats = 4

    /// The characters a repetition of a unit of `period` characters must cover to be cut.
    static func coverage(period: Int) -> Int {
        switch period {
        case ...4: 128
        case ...30: max(8 * period, 64)
        case ...63: 5 * period
        default: 4 * period
        }
    }

    /// ``coverage(period:)`` by period (index 0 unused).
    private static let coverages: [Int] = (0...longestUnit).map { $0 == 0 ? Int.max : coverage(period: $0) }

    /// The last characters, in a ring twice the longest unit (a unit is read from where its
    /// repetition began).
    private var recent: [Unicode.Scalar] = Array(repeating: " ", count: 2 * longestUnit)
    /// The characters (Unicode scalars) fed so far.
    private(set) var characters = 0
    /// `runs[p]`: how many characters in a row, up to the last, equal the character `p` before
    /// them (the text's last `runs[p] + p` characters repeat a unit of `p`).
    private var runs: [Int] = Array(repeating: 0, count: longestUnit + 1)
    /// The characters since the last letter or digit.
    private var sinceWord = 0
    /// The last deltas' hashes and texts, in rings twice the longest token unit.
    private var tokenHashes: [Int] = Array(repeating: 0, count: 2 * tokenUnits.upperBound)
    private var tokenTexts: [String] = Array(repeating: "", count: 2 * tokenUnits.upperBound)
    /// The non-empty deltas fed so far.
    private var tokens = 0
    /// `tokenRuns[k]`: as `runs`, for deltas.
    private var tokenRuns: [Int] = Array(repeating: 0, count: tokenUnits.upperBound + 1)
    /// The cut, once there is one.
    private(set) var cut: DegenerateOutput?

    /// Takes the next delta of the text.
    mutating func feed(_ delta: String) -> Action {
        if let cut { return .cut(cut) }
        guard !delta.isEmpty else { return .continue }
        for scalar in delta.unicodeScalars {
            if let found = take(scalar) {
                cut = found
                return .cut(found)
            }
        }
        if let found = takeToken(delta) {
            cut = found
            return .cut(found)
        }
        return .continue
    }

    // MARK: Characters

    private mutating func take(_ scalar: Unicode.Scalar) -> DegenerateOutput? {
        let size = recent.count
        let index = characters
        var found: Int?
        let limit = min(Self.longestUnit, index)
        if limit > 0 {
            for period in 1...limit {
                let run = recent[(index - period) % size] == scalar ? runs[period] + 1 : 0
                runs[period] = run
                if found == nil, run + period >= Self.coverages[period], isSmallestPeriod(period, of: runs) { found = period }
            }
        }
        recent[index % size] = scalar
        characters += 1
        let properties = scalar.properties
        sinceWord = properties.isAlphabetic || properties.numericType != nil ? 0 : sinceWord + 1
        if let period = found {
            let covered = runs[period] + period
            return DegenerateOutput(
                kind: .repeatedText, unit: String(String.UnicodeScalarView(unit(period: period, covered: covered))),
                repeats: covered / period, characters: characters)
        }
        if sinceWord >= Self.runawayLength {
            let tail = (characters - sinceWord..<characters).suffix(Self.longestUnit).map { recent[$0 % size] }
            return DegenerateOutput(
                kind: .runawayWhitespace, unit: String(String.UnicodeScalarView(tail)), repeats: sinceWord, characters: characters)
        }
        return nil
    }

    /// The unit of `period` characters whose repetition covers the last `covered` characters,
    /// read from where the repetition began (`[aesbw]; `, not `bw]; [aes`), or from its first
    /// word when it began with whitespace (a repetition can reach back into the text before the
    /// loop by a character or two that happen to match).
    private func unit(period: Int, covered: Int) -> [Unicode.Scalar] {
        let start = characters - covered
        // The last whole unit that starts where a unit of the repetition starts.
        let first = start + (characters - period - start) / period * period
        let unit = (first..<first + period).map { recent[$0 % recent.count] }
        let isSpace = { (scalar: Unicode.Scalar) in scalar.properties.isWhitespace }
        guard isSpace(unit[0]) || !isSpace(unit[period - 1]),
            let word = (0..<period).first(where: { isSpace(unit[($0 + period - 1) % period]) && !isSpace(unit[$0]) })
        else { return unit }
        return Array(unit[word...] + unit[..<word])
    }

    // MARK: Tokens

    private mutating func takeToken(_ delta: String) -> DegenerateOutput? {
        let size = tokenHashes.count
        let index = tokens
        let hash = delta.hashValue
        var found: Int?
        let limit = min(Self.tokenUnits.upperBound, index)
        if limit > 0 {
            for period in 1...limit {
                let run = tokenHashes[(index - period) % size] == hash ? tokenRuns[period] + 1 : 0
                tokenRuns[period] = run
                if found == nil, Self.tokenUnits.contains(period), run + period >= Self.tokenRepeats * period,
                    isSmallestPeriod(period, of: tokenRuns), unitCharacters(period, at: index) > Self.longestUnit
                {
                    found = period
                }
            }
        }
        tokenHashes[index % size] = hash
        tokenTexts[index % size] = delta
        tokens += 1
        guard let period = found else { return nil }
        let covered = tokenRuns[period] + period
        let start = tokens - covered
        let first = start + (tokens - period - start) / period * period
        let text = (first..<first + period).map { tokenTexts[$0 % size] }.joined()
        return DegenerateOutput(
            kind: .repeatedTokens, unit: String(text.unicodeScalars.prefix(Self.longestUnit)), repeats: covered / period,
            characters: characters)
    }

    /// The characters of the `period` deltas before the one at `index` and that one (whose text
    /// equals the delta `period` before it, which the ring still holds).
    private func unitCharacters(_ period: Int, at index: Int) -> Int {
        (index - period..<index).reduce(0) { $0 + tokenTexts[$1 % tokenTexts.count].unicodeScalars.count }
    }

    // MARK: Periods

    /// Whether `period` is the smallest period of the repetition it ends: no divisor of it
    /// repeats over as long a stretch.
    private func isSmallestPeriod(_ period: Int, of runs: [Int]) -> Bool {
        let covered = runs[period] + period
        var divisor = 1
        while divisor * 2 <= period {
            if period % divisor == 0, runs[divisor] + divisor >= covered { return false }
            divisor += 1
        }
        return true
    }
}
