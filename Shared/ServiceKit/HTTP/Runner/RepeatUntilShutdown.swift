import ServiceLifecycle

/// Background work that needs no store (the gateway's): `tick` runs again and again, pausing as long
/// as it answers (or until `bell` rings, during the tick or after it), until the service shuts down;
/// when `after` answers false first, it never runs.
public func repeatUntilShutdown(
    wakingOn bell: Bell? = nil, after ready: @escaping @Sendable () async -> Bool = { true },
    _ tick: @escaping @Sendable () async -> Duration
) async {
    await cancelWhenGracefulShutdown {
        guard await ready() else { return }
        while !Task.isCancelled {
            let seen = bell?.rings ?? 0
            let pause = await tick()
            if let bell { await bell.wait(upTo: pause, since: seen) } else { try? await Task.sleep(for: pause) }
        }
    }
}
