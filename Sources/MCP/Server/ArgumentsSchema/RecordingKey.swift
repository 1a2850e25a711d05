/// A coding key the recorder makes: an array index (`"Index N"`, as Foundation and
/// ``JSONCore/JSONValueDecoder`` spell it), `"super"`, or the `"*"` that stands for any dictionary key.
struct RecordingKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ string: String) {
        stringValue = string
        intValue = nil
    }

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init?(stringValue: String) {
        self.init(stringValue)
    }

    init?(intValue: Int) {
        self.init(index: intValue)
    }
}
