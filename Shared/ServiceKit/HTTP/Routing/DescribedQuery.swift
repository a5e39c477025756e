public import Contracts
public import HummingbirdCore

/// The description of the operation whose handler is running, and its request's query as read once,
/// set by the registration around the handler (`DescribedHandling`). Reading a query field or a path
/// id the description does not name stops a debug build at once (the edge-value tests call every
/// operation) instead of drifting from the document.
public struct DescribedOperation: Sendable {
    @TaskLocal public static var current: DescribedOperation?

    public let operation: APIOperation
    /// Hummingbird parses the query again each time it is asked for it (the split, an array, every
    /// pair): read here once, a search that reads six fields no longer parses it seven times.
    let query: FlatDictionary<Substring, Substring>
}

/// How every registration runs the handler of a described operation: the query checked against the
/// operation's rules, made once, then the handler with the operation and the query at hand.
struct DescribedHandling: Sendable {
    let operation: APIOperation
    private let rules: QueryRules

    init(_ operation: APIOperation) {
        self.operation = operation
        self.rules = QueryRules(operation)
    }

    func run<Output>(_ request: Request, _ handler: () async throws -> Output) async throws -> Output {
        let query = request.uri.queryParameters
        try rules.check(query)
        return try await DescribedOperation.$current.withValue(DescribedOperation(operation: operation, query: query)) {
            try await handler()
        }
    }
}

extension Request {
    /// A query field's value, parsed, with its default applied. `QueryRules` checked every value
    /// against the field's schema before the handler ran, so this only fails on a rule between
    /// parameters (a `lat` without its `lng`), with the field's own 422.
    public func query<Value>(_ field: QueryField<Value>) throws -> Value {
        let described = DescribedOperation.current
        assert(
            described.map { described in
                field.queryParameters.allSatisfy { parameter in described.operation.query.contains { $0.name == parameter.name } }
            } ?? true,
            "\(field.queryParameters.map(\.name)) is not in the description of \(described?.operation.name ?? "")")
        let given = described?.query ?? uri.queryParameters
        let raw: (String) -> String? = { given[Substring($0)].map(String.init) }
        guard let value = field.value(in: raw) else { throw CommonError.validation([field.problem(in: raw)]) }
        return value
    }
}
