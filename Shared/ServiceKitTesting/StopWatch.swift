public import ServiceHTTP

/// Runs `stop`, a stack's stopping; if it has not returned within `patience`, says which services
/// are still running, and goes on waiting. Stopping takes seconds: a stop that did not end hung a
/// whole test run without a word of which service it waited for.
public func stopping(_ running: RunningServices, patience: Duration = .seconds(90), _ stop: () async throws -> Void) async rethrows {
    let watch = Task {
        try await Task.sleep(for: patience)
        print("✘ a stack has not stopped after \(patience); still running: \(running.names.joined(separator: ", "))")
    }
    defer { watch.cancel() }
    try await stop()
}
