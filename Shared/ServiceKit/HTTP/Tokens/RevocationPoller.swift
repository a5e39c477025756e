public import Logging
public import ServiceLifecycle

/// Pulls revoked sessions from auth every `interval`, so a logged-out session's access token is
/// refused everywhere within about that long rather than only when it expires, and the live
/// sockets opened with those sessions on this instance close (`OpenSockets`).
public struct RevocationPoller: Service {
    let verifier: TokenVerifier
    let interval: Duration
    let logger: Logger

    /// How long polls must have failed before it is news: on a machine starved for a second or two
    /// (a deploy, a loaded test run) a few polls in a row miss, and that is no news; auth gone for
    /// this long is.
    static let outageWorthAWarning: Duration = .seconds(5)

    public init(verifier: TokenVerifier, interval: Duration, logger: Logger) {
        self.verifier = verifier
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        // Stops at once on shutdown: a poll then would only fail against modules that are stopping too.
        await cancelWhenGracefulShutdown {
            var failingSince: ContinuousClock.Instant?, warned = false
            while true {
                // Sleep first: at start-up the source may still be migrating its store.
                do { try await Task.sleep(for: interval) } catch { return }
                do {
                    let ended = try await verifier.pollRevocations()
                    if !ended.isEmpty { await OpenSockets.current?.close(sessions: ended) }
                    if warned { logger.info("revocation list reachable again") }
                    (failingSince, warned) = (nil, false)
                } catch {
                    if Task.isCancelled { return }
                    let since = failingSince ?? .now
                    failingSince = since
                    if !warned, ContinuousClock.now - since >= Self.outageWorthAWarning {
                        warned = true
                        logger.warning("cannot fetch revoked sessions (failing for \(ContinuousClock.now - since)): \(error)")
                    } else if !warned {
                        logger.debug("revoked sessions not fetched this time: \(error)")
                    }
                }
            }
        }
    }
}
