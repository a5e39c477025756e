public import Contracts
import Foundation

/// Checks a JSON value against the schema the OpenAPI document states for it, so every rule the
/// document names (types, enums, lengths, ranges, patterns, item counts, required fields) is one the
/// server enforces, in one place, with the field's path and the project's own words.
///
/// It reads the keywords `JSONSchema` has; a document that used others would need them added here.
/// Hand-written rather than a JSON Schema package: none is among the packages this project can use,
/// and the subset is small (the keywords `SchemaReader` and `FieldConstraints` produce).
public struct SchemaValidator: Sendable {
    /// Named schemas a `$ref` points into (`#/components/schemas/<name>`).
    public let components: [String: JSONSchema]

    public init(components: [String: JSONSchema]) {
        self.components = components
    }

    /// Every way `value` breaks `schema`, each with the path of the field (`selections[0].odds`);
    /// `path` is the place of `value` itself ("" for a whole body).
    public func problems(in value: JSONValue, against schema: JSONSchema, at path: String = "") -> [Problem.FieldError] {
        var found: [Problem.FieldError] = []
        check(value, schema, path, into: &found)
        return found
    }

    private func check(_ value: JSONValue, _ schema: JSONSchema, _ path: String, into found: inout [Problem.FieldError]) {
        func fail(_ message: String) { found.append(.init(field: Self.field(path), message: message)) }

        if let ref = schema.ref {
            guard let target = components[String(ref.dropFirst("#/components/schemas/".count))] else { return }
            return check(value, target, path, into: &found)
        }
        if let choices = schema.oneOf ?? schema.anyOf {
            let results = choices.map { problems(in: value, against: $0, at: path) }
            if results.contains(where: \.isEmpty) { return }
            // `X or null`: say what is wrong with it as an X.
            if choices.count == 2, choices[1] == .type("null") { return found += results[0] }
            return fail("does not have any of the allowed forms")
        }
        for part in schema.allOf ?? [] { check(value, part, path, into: &found) }
        if let types = schema.type {
            let has = value.typeNames
            guard types.contains(where: has.contains) else {
                return fail(value == .null ? "must not be null" : "must be \(Self.describe(types.filter { $0 != "null" }))")
            }
            if value == .null { return }
        }
        switch value {
        case .string(let text): checkText(text, schema, fail)
        case .integer, .number: checkNumber(value.numberValue ?? 0, schema, fail)
        case .array(let items): checkArray(items, schema, path, into: &found)
        case .object(let fields): checkObject(fields, schema, path, into: &found)
        case .null, .bool: break
        }
    }

    private func checkText(_ text: String, _ schema: JSONSchema, _ fail: (String) -> Void) {
        if let choices = schema.enum, !choices.contains(text) {
            return fail("must be one of: \(choices.joined(separator: ", "))")
        }
        // JSON Schema counts characters as Unicode code points.
        // One problem a field: the length, else the form.
        let length = text.unicodeScalars.count
        switch (schema.minLength, schema.maxLength) {
        case (let low?, let high?) where length < low || length > high:
            return fail(low == high ? "must be \(low) characters long" : "must be \(low) to \(high) characters long")
        case (let low?, nil) where length < low: return fail("must be at least \(low) characters long")
        case (nil, let high?) where length > high: return fail("must be at most \(high) characters long")
        default: break
        }
        if let pattern = schema.pattern, !PatternCache.shared.matches(text, pattern) {
            if schema.format == "uuid" { return fail("must be a UUID") }
            fail(schema.description.map { "must be \($0)" } ?? "does not have the expected form")
        }
    }

    private func checkNumber(_ number: Double, _ schema: JSONSchema, _ fail: (String) -> Void) {
        func text(_ value: Double) -> String { value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value) }
        switch (schema.minimum, schema.maximum) {
        case (let low?, let high?) where number < low || number > high: fail("must be between \(text(low)) and \(text(high))")
        case (let low?, nil) where number < low: fail("must be at least \(text(low))")
        case (nil, let high?) where number > high: fail("must be at most \(text(high))")
        default:
            if let low = schema.exclusiveMinimum, number <= low { fail("must be more than \(text(low))") }
        }
    }

    /// The name a problem with the value at `path` is reported under.
    private static func field(_ path: String) -> String { path.isEmpty ? "body" : path }

    private func checkArray(_ items: [JSONValue], _ schema: JSONSchema, _ path: String, into found: inout [Problem.FieldError]) {
        func fail(_ message: String) { found.append(.init(field: Self.field(path), message: message)) }
        func count(_ n: Int) -> String { n == 1 ? "1 item" : "\(n) items" }
        if let low = schema.minItems, items.count < low { fail("must have at least \(count(low))") }
        if let high = schema.maxItems, items.count > high { fail("must have at most \(count(high))") }
        if schema.uniqueItems == true, Set(items.map(HashableJSON.init)).count != items.count { fail("must not repeat an item") }
        guard let itemSchema = schema.items else { return }
        for (index, item) in items.enumerated() { check(item, itemSchema, "\(path)[\(index)]", into: &found) }
    }

    private func checkObject(_ fields: [String: JSONValue], _ schema: JSONSchema, _ path: String, into found: inout [Problem.FieldError]) {
        func child(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }
        for name in schema.required ?? [] where fields[name] == nil {
            found.append(.init(field: child(name), message: "is required"))
        }
        if let least = schema.minProperties, fields.count < least {
            found.append(.init(field: Self.field(path), message: "must have at least \(least) field(s)"))
        }
        for (name, field) in fields.sorted(by: { $0.key < $1.key }) {
            if let property = schema.properties?[name] {
                check(field, property, child(name), into: &found)
            } else if let additional = schema.additionalProperties {
                check(field, additional, child(name), into: &found)
            } else if schema.closed {
                found.append(.init(field: child(name), message: "is not a field of this request"))
            }
        }
    }

    /// "an integer", "a string or an array": what a value of these JSON types is called in a problem.
    public static func describe(_ types: [String]) -> String {
        let names = types.map { type in
            switch type {
            case "string": "a string"
            case "integer": "an integer"
            case "number": "a number"
            case "boolean": "true or false"
            case "array": "an array"
            case "object": "an object"
            default: type
            }
        }
        return names.joined(separator: " or ")
    }
}

/// JSON values compared as wholes, for `uniqueItems`.
private struct HashableJSON: Hashable {
    let text: String
    init(_ value: JSONValue) { text = String(describing: value) }
}

/// Compiled patterns, shared: each is compiled once however many requests it checks.
private final class PatternCache: @unchecked Sendable {  // Guarded by `lock`.
    static let shared = PatternCache()
    private let lock = NSLock()
    private var compiled: [String: NSRegularExpression] = [:]

    func matches(_ text: String, _ pattern: String) -> Bool {
        lock.lock()
        let expression = compiled[pattern] ?? (try? NSRegularExpression(pattern: pattern))
        if let expression { compiled[pattern] = expression }
        lock.unlock()
        guard let expression else { return true }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, range: range) != nil
    }
}
