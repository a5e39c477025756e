public import Contracts
public import ServerContracts
public import ServiceHTTP

/// Reads another service's full snapshot page by page: how a read model that lost its data
/// rebuilds it. A service that is down is a 503.
public struct SnapshotClient: Sendable {
    let dependencies: ServiceDependencies

    public init(dependencies: ServiceDependencies) { self.dependencies = dependencies }

    /// Calls `body` with each page, in order, until the last; returns how many items there were.
    @discardableResult
    public func forEachPage<Item: Codable & Sendable>(
        of snapshot: Endpoint<InternalCaller, NoBody, Page<Item>>, pageSize: Int = 100, _ body: ([Item]) async throws -> Void
    ) async throws -> Int {
        let module = snapshot.operation.owner
        let client = InternalClient(module, dependencies: dependencies, timeout: .seconds(30))
        var cursor: String? = nil, count = 0
        repeat {
            guard let page = try await client.call(snapshot, query: Query.limit(pageSize) + Query.cursor(cursor)) else {
                throw CommonError.dependencyUnavailable(module.rawValue)
            }
            try await body(page.items)
            count += page.items.count
            cursor = page.nextCursor
        } while cursor != nil
        return count
    }
}
