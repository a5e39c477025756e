public import Foundation

/// A query parameter with the Swift type it is read as. An operation's description lists its fields
/// (`query: [SearchAPI.Query.area, …]`), so the document states them; the server checks each value
/// against the field's schema before the handler runs and hands the handler the parsed value, its
/// default applied; a client writes its value through the same field. The bounds, the default and
/// the name are written once, here.
public struct QueryField<Value: Sendable>: Sendable, QueryDescribing {
    /// What the document shows: usually one parameter; a value sent as several (a place as
    /// `lat=…&lng=…`) shows each.
    public let queryParameters: [QueryParameter]
    /// The value from the raw texts by name; nil when they do not make one (which the schema check
    /// already answered with a 422 naming the parameter, save for rules between parameters).
    let read: @Sendable (_ raw: (String) -> String?) -> Value?
    /// The texts to send for a value.
    let write: @Sendable (Value) -> [(String, String)]
    /// What a client is told when `read` refuses what the schema let through, given the texts.
    let refusal: @Sendable (_ raw: (String) -> String?) -> Problem.FieldError

    public init(
        _ parameters: [QueryParameter], problem: Problem.FieldError? = nil,
        read: @escaping @Sendable (_ raw: (String) -> String?) -> Value?, write: @escaping @Sendable (Value) -> [(String, String)]
    ) {
        let fixed = problem ?? .init(field: parameters.map(\.name).joined(separator: ", "), message: "has an invalid value")
        self.init(parameters, refusal: { _ in fixed }, read: read, write: write)
    }

    public init(
        _ parameters: [QueryParameter], refusal: @escaping @Sendable (_ raw: (String) -> String?) -> Problem.FieldError,
        read: @escaping @Sendable (_ raw: (String) -> String?) -> Value?, write: @escaping @Sendable (Value) -> [(String, String)]
    ) {
        self.queryParameters = parameters
        self.read = read
        self.write = write
        self.refusal = refusal
    }

    /// Why the texts do not make a value of this field.
    public func problem(in raw: (String) -> String?) -> Problem.FieldError { refusal(raw) }

    /// The value of this field in a query given as texts by name.
    public func value(in raw: (String) -> String?) -> Value? { read(raw) }

    /// The name–text pairs a client sends for `value`; none for an absent optional.
    public func items(for value: Value) -> [(name: String, value: String)] { write(value).map { (name: $0.0, value: $0.1) } }
}

/// What an operation's `query:` lists: typed fields, or several at once (`QueryFields.paging`).
public protocol QueryDescribing: Sendable {
    var queryParameters: [QueryParameter] { get }
}

// MARK: Making fields

/// The kinds of query field, and those several operations share.
public enum Query {
    /// A field a client may leave out, nil then.
    public static func optional<Value>(
        _ name: String, _ schema: JSONSchema, description: String? = nil, problem: String? = nil,
        parse: @escaping @Sendable (String) -> Value?, text: @escaping @Sendable (Value) -> String
    ) -> QueryField<Value?> {
        QueryField<Value?>(
            [QueryParameter(name, schema, description: description)], problem: problem.map { .init(field: name, message: $0) },
            read: { raw in
                guard let given = raw(name) else { return .some(nil) }
                return parse(given).map { .some($0) }
            },
            write: { value in value.map { [(name, text($0))] } ?? [] })
    }

    /// A field a client may leave out, `fallback` then; the document shows the fallback as the default.
    public static func defaulted<Value>(
        _ name: String, _ schema: JSONSchema, fallback: Value, description: String? = nil, problem: String? = nil,
        parse: @escaping @Sendable (String) -> Value?, text: @escaping @Sendable (Value) -> String
    ) -> QueryField<Value> {
        QueryField(
            [QueryParameter(name, schema, description: description)], problem: problem.map { .init(field: name, message: $0) },
            read: { raw in raw(name).map(parse) ?? fallback }, write: { [(name, text($0))] })
    }

    /// A field a request must carry (422 `is required` otherwise, before the handler runs).
    public static func required<Value>(
        _ name: String, _ schema: JSONSchema, description: String? = nil, problem: String? = nil,
        parse: @escaping @Sendable (String) -> Value?, text: @escaping @Sendable (Value) -> String
    ) -> QueryField<Value> {
        QueryField(
            [QueryParameter(name, schema, required: true, description: description)],
            problem: problem.map { .init(field: name, message: $0) },
            read: { raw in raw(name).flatMap(parse) }, write: { [(name, text($0))] })
    }

    /// A whole number within `range`, `fallback` when absent.
    public static func integer(_ name: String, _ range: ClosedRange<Int>, fallback: Int, description: String? = nil) -> QueryField<Int> {
        defaulted(
            name, JSONSchema.integer(range).defaulting(to: .number(Double(fallback))), fallback: fallback, description: description,
            parse: { Int($0).flatMap { range.contains($0) ? $0 : nil } }, text: String.init)
    }

    /// A whole number within `range`, nil when absent.
    public static func integer(_ name: String, _ range: ClosedRange<Int>, description: String? = nil) -> QueryField<Int?> {
        optional(
            name, .integer(range), description: description, parse: { Int($0).flatMap { range.contains($0) ? $0 : nil } }, text: String.init
        )
    }

    public static func flag(_ name: String, description: String? = nil) -> QueryField<Bool?> {
        optional(name, .boolean, description: description, parse: { Bool($0) }, text: String.init)
    }

    public static func time(_ name: String, description: String? = nil) -> QueryField<Date?> {
        optional(name, .dateTime, description: description, parse: HuddleJSON.parseRFC3339, text: HuddleJSON.formatRFC3339)
    }

    /// `?date=2026-11-22`.
    public static func day(_ name: String, description: String? = nil) -> QueryField<CalendarDay?> {
        optional(name, .calendarDay, description: description, parse: { CalendarDay($0) }, text: \.description)
    }

    /// Text a person typed (`?q=`), checked by `rule`, without the blanks at its ends.
    public static func text(_ name: String, _ rule: TextRule, description: String? = nil) -> QueryField<String?> {
        QueryField<String?>(
            [QueryParameter(name, rule.schema, description: description)], refusal: textRefusal(name, rule),
            read: { raw in
                guard let given = raw(name) else { return .some(nil) }
                return rule.problem(given) == nil ? given.trimmingBlanks : nil
            },
            write: { value in value.map { [(name, $0)] } ?? [] })
    }

    /// Text a person must type, checked by `rule`, without the blanks at its ends.
    public static func requiredText(_ name: String, _ rule: TextRule, description: String? = nil) -> QueryField<String> {
        QueryField<String>(
            [QueryParameter(name, rule.schema, required: true, description: description)], refusal: textRefusal(name, rule),
            read: { raw in raw(name).flatMap { rule.problem($0) == nil ? $0.trimmingBlanks : nil } }, write: { [(name, $0)] })
    }

    private static func textRefusal(_ name: String, _ rule: TextRule) -> @Sendable ((String) -> String?) -> Problem.FieldError {
        { raw in .init(field: name, message: raw(name).flatMap(rule.problem) ?? "is required") }
    }

    /// One of an enum's cases (`?sport=volleyball`), nil when absent.
    public static func choice<E: WireEnum & Sendable>(_ name: String, _ type: E.Type, description: String? = nil) -> QueryField<E?> {
        optional(name, .oneOf(E.allCases.map(\.rawValue)), description: description, parse: { E(rawValue: $0) }, text: \.rawValue)
    }

    /// One of an enum's cases, `fallback` when absent.
    public static func choice<E: WireEnum & Sendable>(_ name: String, fallback: E, description: String? = nil) -> QueryField<E> {
        defaulted(
            name, JSONSchema.oneOf(E.allCases.map(\.rawValue)).defaulting(to: .text(fallback.rawValue)), fallback: fallback,
            description: description, parse: { E(rawValue: $0) }, text: \.rawValue)
    }

    /// One of an enum's cases, which the request must name.
    public static func requiredChoice<E: WireEnum & Sendable>(_ name: String, _ type: E.Type, description: String? = nil) -> QueryField<E> {
        required(name, .oneOf(E.allCases.map(\.rawValue)), description: description, parse: { E(rawValue: $0) }, text: \.rawValue)
    }
}
