extension Sequence {
    /// `map` with an async transform, one element after the other (in order: setups that register
    /// users or create fixtures one by one).
    public func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}

extension Sequence where Element: Sendable {
    /// `map` with every transform started at once, for what happens when requests race (two devices,
    /// a second tap); the results in the order of the elements.
    public func concurrentMap<T: Sendable>(_ transform: @escaping @Sendable (Element) async throws -> T) async throws -> [T] {
        try await withThrowingTaskGroup(of: (Int, T).self) { group in
            for (index, element) in enumerated() { group.addTask { (index, try await transform(element)) } }
            return try await group.reduce(into: []) { $0.append($1) }.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }
}
