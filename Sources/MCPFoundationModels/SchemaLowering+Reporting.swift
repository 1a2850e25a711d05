internal import MCPCore

#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

// Diagnostics: what the lowering reports for keywords it cannot map.

extension SchemaLowering {
    // MARK: Reporting

    mutating func report(_ severity: SchemaDiagnostic.Severity, at pointer: JSONPointer, _ message: String) {
        let diagnostic = SchemaDiagnostic(severity: severity, location: pointer, message: message)
        if !diagnostics.contains(diagnostic) {
            diagnostics.append(diagnostic)
        }
    }

    /// Reports every keyword of `object` that the lowering did not use.
    mutating func reportUnconsumed(_ object: JSONObject, at pointer: JSONPointer, consumed: Set<String>) {
        for (key, value) in object where !consumed.contains(key) {
            let (severity, message) = Self.explanation(for: key, value: value)
            report(severity, at: pointer.appending(key), message)
        }
    }

    static func explanation(for keyword: String, value: JSONValue) -> (SchemaDiagnostic.Severity, String) {
        switch keyword {
        case "title", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "$schema", "$id", "$anchor",
            "$dynamicAnchor", "contentMediaType", "contentEncoding", "contentSchema", "$vocabulary":
            return (.note, "\"\(keyword)\" is an annotation; the model does not see it")
        case "default":
            return (.note, "the default \(value) is not shown to the model; leaving the property out lets the server apply it")
        case "description":
            return (.note, "the description has nowhere to go at this position; the model does not see it")
        case "format":
            return (
                .warning,
                "format \"\(value.stringValue ?? value.description)\" cannot be a generation guide; it is checked when the arguments are validated"
            )
        case "minLength", "maxLength":
            return (
                .warning,
                "\(keyword) beside a pattern cannot be a generation guide (a length becomes a pattern guide only on its own); it is checked when the arguments are validated"
            )
        case "multipleOf", "uniqueItems", "contains", "minContains", "maxContains", "minProperties", "maxProperties",
            "propertyNames", "dependentRequired", "dependencies":
            return (.warning, "\(keyword) cannot be a generation guide; it is checked when the arguments are validated")
        case "patternProperties":
            return (
                .warning, "patternProperties describe a map, which cannot be generated; the model is offered only the declared properties"
            )
        case "additionalProperties":
            return (.warning, "\"additionalProperties\" must be a schema or a Boolean")
        case "not", "if", "then", "else", "allOf", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
            "prefixItems", "additionalItems", "$dynamicRef", "$recursiveRef", "$recursiveAnchor":
            return (.warning, "\"\(keyword)\" cannot be expressed as a generation schema; it is checked when the arguments are validated")
        case "anyOf", "oneOf":
            return (
                .warning,
                "\"\(keyword)\" that only adds constraints (or sits beside another choice) cannot be a generation guide; it is checked when the arguments are validated"
            )
        case "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "items", "minItems", "maxItems",
            "properties", "required", "enum", "const":
            return (.note, "\"\(keyword)\" does not apply to this schema's type; it is not used")
        default:
            if keyword.hasPrefix("x-") || keyword.hasPrefix("x_") {
                return (.note, "the extension \"\(keyword)\" is not used")
            }
            return (.warning, "the keyword \"\(keyword)\" is not supported; it is checked when the arguments are validated")
        }
    }
}
