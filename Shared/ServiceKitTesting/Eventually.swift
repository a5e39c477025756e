/// How long a test waits for what happens asynchronously (an event delivered, a poll, a timer)
/// before it gives up. Long, because CI runs the suite 24 cases at a time on two cores, where an
/// event that takes milliseconds on a quiet machine has taken seconds; it costs nothing when what
/// is awaited comes early, since the wait ends then.
public let patience = Duration.seconds(30)

/// Reads `read` until `done` holds for what it answers, or `timeout` passes; answers the last read,
/// for the test to check (and to show when it does not hold).
public func poll<Value>(
    within timeout: Duration = patience, every interval: Duration = .milliseconds(25), _ read: () async throws -> Value,
    until done: (Value) throws -> Bool
) async throws -> Value {
    let deadline = ContinuousClock.now + timeout
    while true {
        let value = try await read()
        if try done(value) || ContinuousClock.now >= deadline { return value }
        try await Task.sleep(for: interval)
    }
}

/// Whether `condition` comes to hold within `timeout` (see `poll`).
public func eventually(
    within timeout: Duration = patience, every interval: Duration = .milliseconds(25), _ condition: () async throws -> Bool
) async throws -> Bool {
    try await poll(within: timeout, every: interval, condition) { $0 }
}
