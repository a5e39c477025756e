public import Logging
public import ServiceLifecycle

/// Pulls revoked sessions from auth every `interval`, so a logged-out session's access token is
/// refused everywhere within about that long rather than only when it expires, and the live
/// sockets opened with those sessions on this instance close (`OpenSockets`).
public struct RevocationPoller: Service {
    let verifier: TokenVerifier
    let interval: Duration
    let logger: Logger

    static let failuresWorthAWarning = 3

    public init(verifier: TokenVerifier, interval: Duration, logger: Logger) {
        self.verifier = verifier
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        // Stops at once on shutdown: a poll then would only fail against modules that are stopping too.
        await cancelWhenGracefulShutdown {
            var failures = 0
            while true {
                // Sleep first: at start-up the source may still be migrating its store.
                do { try await Task.sleep(for: interval) } catch { return }
                do {
                    let ended = try await verifier.pollRevocations()
                    if !ended.isEmpty { await OpenSockets.current?.close(sessions: ended) }
                    if failures >= Self.failuresWorthAWarning { logger.info("revocation list reachable again") }
                    failures = 0
                } catch {
                    if Task.isCancelled { return }
                    failures += 1
                    // One poll missed on a busy machine is no news; auth gone for three polls is.
                    if failures == Self.failuresWorthAWarning {
                        logger.warning("cannot fetch revoked sessions (\(failures) polls in a row): \(error)")
                    } else if failures < Self.failuresWorthAWarning {
                        logger.debug("revoked sessions not fetched this time: \(error)")
                    }
                }
            }
        }
    }
}
