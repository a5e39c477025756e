extension Array {
    /// The elements in consecutive slices of at most `size`, for writing many rows a statement at a
    /// time: a thousand rows of up to 30 values stay under SQLite's limit of 32,766 bound parameters
    /// (PostgreSQL's is 65,535).
    public func statementSlices(of size: Int = 1000) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
