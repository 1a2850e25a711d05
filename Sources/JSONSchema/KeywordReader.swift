import JSONCore

/// Reads typed keyword values from a schema object, throwing ``SchemaError`` for a wrong type.
struct KeywordReader {
    let object: JSONObject
    let pointer: [String]

    func fail(_ keyword: String, _ message: String) -> SchemaError {
        SchemaError(location: JSONPointer(tokens: pointer + [keyword]), reason: .invalidKeyword, message: message)
    }

    func number(_ keyword: String) throws(SchemaError) -> Bound? {
        guard let value = object[keyword] else { return nil }
        guard let bound = Bound(value) else { throw fail(keyword, "\(keyword) must be a number") }
        return bound
    }

    func count(_ keyword: String) throws(SchemaError) -> Int? {
        guard let value = object[keyword] else { return nil }
        if case .double(let d) = value, d >= 0, d.isFinite, d == d.rounded() {
            return d >= Double(Int.max) ? Int.max : Int(d)
        }
        guard case .int(let n) = value, n >= 0 else {
            throw fail(keyword, "\(keyword) must be a non-negative integer")
        }
        return n
    }

    func bool(_ keyword: String) throws(SchemaError) -> Bool? {
        guard let value = object[keyword] else { return nil }
        guard case .bool(let flag) = value else { throw fail(keyword, "\(keyword) must be true or false") }
        return flag
    }

    func array(_ keyword: String) throws(SchemaError) -> [JSONValue]? {
        guard let value = object[keyword] else { return nil }
        guard case .array(let list) = value else { throw fail(keyword, "\(keyword) must be an array") }
        return list
    }

    func strings(_ keyword: String) throws(SchemaError) -> [String]? {
        guard let list = try array(keyword) else { return nil }
        var result: [String] = []
        for item in list {
            guard case .string(let text) = item else { throw fail(keyword, "\(keyword) must be an array of strings") }
            result.append(text)
        }
        return result
    }

    func types() throws(SchemaError) -> TypeSet? {
        guard let value = object["type"] else { return nil }
        var names: [JSONValue] = []
        switch value {
        case .string: names = [value]
        case .array(let list): names = list
        default: throw fail("type", "type must be a type name or an array of them")
        }
        var set = TypeSet()
        for name in names {
            guard case .string(let text) = name, let type = TypeSet.names.first(where: { $0.0 == text })?.1 else {
                throw fail("type", "unknown type \(name); use null, boolean, integer, number, string, array or object")
            }
            set.insert(type)
        }
        return set
    }
}
