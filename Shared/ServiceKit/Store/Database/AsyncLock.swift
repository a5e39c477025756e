/// A first-come-first-served lock for async code. SQLite is used through one connection, and a
/// transaction there must not interleave with other statements, so every use takes this lock.
actor AsyncLock {
    private var isLocked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        if !isLocked {
            isLocked = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            isLocked = false
        } else {
            // Hand the lock straight to the next waiter; it stays locked.
            waiters.removeFirst().resume()
        }
    }
}
