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
        // Stops at once on shutdown: a poll then would only fail against modules that are stopping too.
        await cancelWhenGracefulShutdown {
            var failing = false
            while true {
                // Sleep first: at start-up the source may still be migrating its store.
                do { try await Task.sleep(for: interval) } catch { return }
                do {
                    try await verifier.pollRevocations()
                    if failing { logger.info("revocation list reachable again") }
                    failing = false
                } catch {
                    if Task.isCancelled { return }
                    if !failing { logger.warning("cannot fetch revoked sessions: \(error)") }
                    failing = true
                }
            }
        }
    }
}
