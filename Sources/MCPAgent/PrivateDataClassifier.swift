/// Decides whether a prompt of the user's carries private data, for the data-flow guard.
///
/// A prompt is the user's own text, so it is never untrusted; but it can carry what must not
/// reach a third party: a card number, a password, an account token, a diagnosis. When the
/// classifier finds a prompt private, the conversation has read private data, and a tool
/// whose arguments leave the app (or that has effects) waits for a person.
///
/// The default, ``secretsAndPaymentCards``, finds the well-known secret shapes
/// (``SecretRedactor``), the app's configured secrets, and payment card numbers (13–19 digits,
/// with spaces or dashes, that pass the Luhn check). Add the app's own knowledge with
/// ``or(_:)``:
///
/// ```swift
/// defences.promptClassifier = .secretsAndPaymentCards.or(PrivateDataClassifier { prompt in
///     healthTerms.contains { prompt.localizedCaseInsensitiveContains($0) }
/// })
/// ```
public struct PrivateDataClassifier: Sendable {
    private let decide: @Sendable (String) -> Bool

    /// A classifier that asks `isPrivate`.
    public init(_ isPrivate: @escaping @Sendable (String) -> Bool) {
        decide = isPrivate
    }

    /// Whether `prompt` carries private data.
    public func isPrivate(_ prompt: String) -> Bool {
        decide(prompt)
    }

    /// Private when this classifier or `other` says so.
    public func or(_ other: PrivateDataClassifier) -> PrivateDataClassifier {
        PrivateDataClassifier { self.isPrivate($0) || other.isPrivate($0) }
    }

    /// The default: secrets of well-known shapes and payment card numbers. (The app's
    /// configured secrets count too: the bridge checks them with ``Defences/secrets``.)
    public static let secretsAndPaymentCards = PrivateDataClassifier { prompt in
        SecretRedactor().redact(prompt).redactedAnything || containsPaymentCard(prompt)
    }

    /// Every prompt is private: for an app whose users type what must stay in the app.
    public static let everything = PrivateDataClassifier { _ in true }

    /// No prompt is private: only what tools return is tracked.
    public static let nothing = PrivateDataClassifier { _ in false }

    /// Whether `text` holds a run of 13–19 digits (single spaces or dashes between them
    /// allowed) that passes the Luhn check, as payment card numbers do.
    static func containsPaymentCard(_ text: String) -> Bool {
        var digits: [Int] = []
        var separators = 0
        func check() -> Bool { (13...19).contains(digits.count) && luhn(digits[...]) }
        for scalar in text.unicodeScalars {
            if let digit = scalar.properties.numericType == .decimal ? Int(scalar.properties.numericValue ?? -1) : nil, digit >= 0 {
                digits.append(digit)
                separators = 0
            } else if scalar == " " || scalar == "-", !digits.isEmpty, separators == 0 {
                separators += 1
            } else {
                if check() { return true }
                digits = []
                separators = 0
            }
        }
        return check()
    }

    static func luhn(_ digits: ArraySlice<Int>) -> Bool {
        var sum = 0
        for (position, digit) in digits.reversed().enumerated() {
            let value = position % 2 == 1 ? digit * 2 : digit
            sum += value > 9 ? value - 9 : value
        }
        return sum % 10 == 0
    }
}
