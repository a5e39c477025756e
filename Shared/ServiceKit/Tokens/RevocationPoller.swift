public import Logging
public import ServiceLifecycle

/// Pulls revoked sessions from auth every `interval`, so a logged-out session's access token is
/// refused everywhere within about that long rather than only when it expires.
public struct RevocationPoller: Service {
    let verifier: TokenVerifier
    let interval: Duration
    let logger: Logger

    public init(verifier: TokenVerifier, interval: Duration, logger: Logger) {
        self.verifier = verifier
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        var failing = false
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            // Sleep first: at start-up the source may still be migrating its store.
            try? await Task.sleep(for: interval)
            do {
                try await verifier.pollRevocations()
                if failing { logger.info("revocation list reachable again") }
                failing = false
            } catch {
                if !failing { logger.warning("cannot fetch revoked sessions: \(error)") }
                failing = true
            }
        }
    }
}
