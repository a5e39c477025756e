import Foundation
import Logging
import ServiceHTTP
import ServiceLifecycle
import ServiceStore

/// Revokes deleted members' Apple refresh tokens at Apple, as long as Apple has not taken them:
/// queued in the deletion's transaction, so a kill or Apple being down loses none.
struct AppleRevocations: Sendable {
    let database: Database
    let store: any DeletionStore
    let exchange: AppleTokenExchange?
    let sealer: TokenSealer?
    let logger: Logger

    /// Revokes what is queued; what Apple does not take stays for the next round.
    func drain() async {
        guard let exchange, let sealer else { return }
        do {
            let pending = try await database.read { sql in try await store.pendingAppleRevocations(limit: 100, on: sql) }
            for (user, sealed) in pending {
                do {
                    try await exchange.revoke(try sealer.open(sealed))
                    try await database.transaction { sql in try await store.clearAppleRevocation(of: user, on: sql) }
                } catch {
                    logger.warning("Apple revocation for deleted account \(user) not taken yet: \(error)")
                }
            }
        } catch {
            logger.warning("Apple revocations not read: \(error)")
        }
    }
}

/// Runs `AppleRevocations` every `interval` (`auth.oauth.apple.revoke.retry.ms`).
struct AppleRevocationWorker: Service {
    let revocations: AppleRevocations
    let interval: Duration

    func run() async throws {
        await revocations.database.repeatUntilShutdown {
            await revocations.drain()
            return interval
        }
    }
}
