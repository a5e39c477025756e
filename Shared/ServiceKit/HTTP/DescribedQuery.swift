public import Contracts
public import Hummingbird

/// The description of the operation whose handler is running, set by the registration around the
/// handler, so that reading a query field or a path id the description does not name stops a debug
/// build at once (the edge-value tests call every operation) instead of drifting from the document.
public enum DescribedOperation {
    @TaskLocal public static var current: APIOperation?
}

extension Request {
    /// A query field's value, parsed, with its default applied. `QueryRules` checked every value
    /// against the field's schema before the handler ran, so this only fails on a rule between
    /// parameters (a `lat` without its `lng`), with the field's own 422.
    public func query<Value>(_ field: QueryField<Value>) throws -> Value {
        assert(
            DescribedOperation.current.map { operation in
                field.queryParameters.allSatisfy { parameter in operation.query.contains { $0.name == parameter.name } }
            } ?? true,
            "\(field.queryParameters.map(\.name)) is not in the description of \(DescribedOperation.current?.name ?? "")")
        let given = uri.queryParameters
        let raw: (String) -> String? = { given[Substring($0)].map(String.init) }
        guard let value = field.value(in: raw) else { throw CommonError.validation([field.problem(in: raw)]) }
        return value
    }
}
