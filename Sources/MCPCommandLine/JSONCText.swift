/// JSON with comments and trailing commas (VS Code's `mcp.json`, JSONC) made plain JSON of the
/// same length: each comment, and each comma before a closing bracket, becomes spaces (line
/// breaks stay), so a byte offset in a parse error still points into the original file.
enum JSONCText {
    /// The bytes with `//` and `/* */` comments, and trailing commas, blanked out; text inside
    /// strings is left alone.
    static func plain(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var result = Array(bytes)
        var index = 0
        var inString = false
        var lastComma: Int?
        let space = UInt8(ascii: " ")
        while index < result.count {
            let byte = result[index]
            if inString {
                if byte == UInt8(ascii: "\\") {
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                lastComma = nil
                index += 1
            case UInt8(ascii: "/") where index + 1 < result.count && result[index + 1] == UInt8(ascii: "/"):
                while index < result.count && result[index] != UInt8(ascii: "\n") {
                    result[index] = space
                    index += 1
                }
            case UInt8(ascii: "/") where index + 1 < result.count && result[index + 1] == UInt8(ascii: "*"):
                // To the end of "*/" (an unterminated comment runs to the end of the text).
                var end = index + 2
                while end + 1 < result.count && !(result[end] == UInt8(ascii: "*") && result[end + 1] == UInt8(ascii: "/")) {
                    end += 1
                }
                end = min(end + 2, result.count)
                for position in index..<end where result[position] != UInt8(ascii: "\n") { result[position] = space }
                index = end
            case UInt8(ascii: ","):
                lastComma = index
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let comma = lastComma { result[comma] = space }
                lastComma = nil
                index += 1
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            default:
                lastComma = nil
                index += 1
            }
        }
        return result
    }
}
