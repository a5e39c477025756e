extension Sequence {
    /// `map` with an async transform, one element after the other (in order: setups that register
    /// users or create fixtures one by one).
    public func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
