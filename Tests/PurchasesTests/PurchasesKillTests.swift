import AuthService
import Contracts
import Foundation
import HuddleEffects
import NIOConcurrencyHelpers
import ProviderStandIns
import SQLKit
import ServiceHTTP
import ServiceKitTesting
import ServiceStore
import Testing

/// The purchases executable is killed with SIGKILL while players' apps submit transactions, and
/// started again; the apps retry what got no answer, as HuddleKit does. Afterwards every
/// transaction is credited, each once, to the player who bought it.
///
/// It runs when `HUDDLE_KILL_TESTS=1` (`.ci/run` runs the kill tests on their own after the suite).
@Suite("Purchases survive SIGKILL", .serialized)
struct PurchasesKillTests {
    static let enabled =
        TestStore.postgresURL != nil && ServiceProcess.isBuilt("purchases")
        && ProcessInfo.processInfo.environment["HUDDLE_KILL_TESTS"] == "1"

    @Test("transactions submitted while purchases is killed and restarted are each credited once", .enabled(if: enabled))
    func creditedOnce() async throws {
        let url = try await TestStore.postgres.freshDatabaseURL()
        let signer = try AppStoreSigner()
        try await TestStack.with([ModuleBuilder.auth]) { auth in
            let purchases = try ServiceProcess(
                "purchases",
                settings: [
                    "purchases.db.url": url, "auth.url": auth.url(.auth),
                    "log.level": "critical",
                    "purchases.appstore.bundle.id": "dev.huddle.app", "purchases.appstore.environment": "Sandbox",
                    "purchases.appstore.roots": try signer.rootPEM,
                ])
            try await purchases.start()
            defer { Task { await purchases.stop() } }
            let client = TestClient(baseURL: purchases.url)
            let players = try await Array(0..<16).asyncMap { index in try await auth.client(.auth).register(name: "Buyer \(index)") }
            // Each player buys three unlocks; their apps submit them all at once.
            var submissions: [(Session, String, String)] = []
            for player in players {
                let token = try await client.value(PurchasesAPI.accountToken, token: player.accessToken).appAccountToken
                for product in ["huddle.location", "huddle.join", "huddle.leagues"] {
                    let id = String(Int64.random(in: 2_000_000_000_000...9_000_000_000_000))
                    let payload = AppStoreTransactionPayload(
                        transactionId: id, bundleId: "dev.huddle.app", productId: product, type: "Non-Consumable", appAccountToken: token)
                    submissions.append((player, id, try signer.sign(payload)))
                }
            }
            let all = submissions
            let answered = NIOLockedValueBox(0)
            let submitting = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (player, _, signed) in all {
                        group.addTask {
                            // An app retries until it has an answer; the process may be down for a while.
                            for _ in 0..<300 {
                                if let answer = try? await client.call(
                                    PurchasesAPI.submitAppleTransaction, body: SubmitTransaction(signedTransaction: signed),
                                    token: player.accessToken),
                                    answer.status == 200
                                {
                                    answered.withLockedValue { $0 += 1 }
                                    return
                                }
                                try await Task.sleep(for: .milliseconds(100))
                            }
                            Issue.record("a submission never got an answer")
                        }
                    }
                    try await group.waitForAll()
                }
            }
            // Killed once the first answers are back, so the others are in flight or queued.
            _ = try await eventually(every: .milliseconds(1)) { answered.withLockedValue { $0 } > 0 }
            await purchases.kill()
            let answeredBeforeKill = answered.withLockedValue { $0 }
            #expect(answeredBeforeKill < submissions.count, "every submission was answered before the kill")
            try await purchases.start()
            try await submitting.value

            for player in players {
                let entitlements = try await client.value(PurchasesAPI.entitlements, token: player.accessToken).items
                #expect(entitlements.map(\.entitlement) == [.location, .join, .leagues])
            }
            let database = try await Database.open(url: url, now: Effects.system.now, logger: .quiet("purchases-kill-test"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await database.run() }
                defer { group.cancelAll() }
                let rows = try await database.read { sql in
                    try await sql.raw("SELECT transaction_id, user_id FROM transactions").all()
                        .map {
                            (try $0.decode(column: "transaction_id", as: String.self), try $0.decode(column: "user_id", as: String.self))
                        }
                }
                #expect(rows.count == submissions.count)
                let owners = Dictionary(rows, uniquingKeysWith: { first, _ in first })
                for (player, id, _) in submissions { #expect(owners[id] == player.user.id.description) }
            }
        }
    }
}
