/// A string length as a generation guide: `[\s\S]{m,n}`, any characters, from `minimum` to
/// `maximum` of them.
///
/// Apple's generation guides have no length, only a pattern, and a pattern constrains the whole
/// string; JSON Schema's `minLength` and `maxLength` count Unicode code points, as this pattern
/// does when matched on Unicode scalars (the way the session validates guides). A backend
/// whose server takes JSON Schema reads a pattern of exactly this form back as `minLength` and
/// `maxLength` (ChatCompletions does), which servers enforce more reliably than a regex.
struct LengthPattern: Equatable {
    var minimum: Int
    var maximum: Int?

    /// The guide's pattern: `[\s\S]{m,n}`, or `[\s\S]{m,}` without a maximum.
    var pattern: String {
        #"[\s\S]{"# + String(minimum) + "," + (maximum.map(String.init) ?? "") + "}"
    }
}
