import Contracts
import Foundation
import HuddleEffects
import ServiceKitTesting
import Testing

@testable import BettingService

/// A wallet topped up to the grant again: through the API on both stores, and the rule on its own.
@Suite("Wallet refill")
struct WalletRefillTests {
    static let day: TimeInterval = 24 * 3600

    @Test(
        "a player who lost part of the grant tops it up once the interval since the grant has passed, through the ledger, once however often asked",
        arguments: TestStore.all)
    func refills(store: TestStore) async throws {
        // The real time, moved on a week when told: the odds poller and the markets still need it to run.
        let clock = SettableClock(Date(timeIntervalSince1970: 0))
        try await BettingHarness.with(store: store, effects: Effects(now: { Date() + clock.now.timeIntervalSince1970 })) { h in
            var ann = try await h.player()
            func refill() async throws -> TestClient.Response {
                try await h.betting.call(BettingAPI.refill, token: ann.accessToken)
            }
            // A full wallet needs none.
            let full = try await refill()
            #expect(full.status == 409 && full.problem?.code == "REFILL_NOT_DUE" && full.problem?.availableAt == nil)
            let derby = try await h.fixture("Flora", "Levadia")
            _ = try await expect(201, h.place(PlaceTicket(stake: 2500, selections: [derby.pick(.home)]), as: ann))
            #expect(try await h.wallet(ann).balance == 7500)
            // Too soon after the grant: when it may be asked for is said.
            let early = try await refill()
            let availableAt = try #require(early.problem?.availableAt)
            #expect(early.status == 409 && early.problem?.code == "REFILL_NOT_DUE")
            #expect(abs(availableAt.timeIntervalSince(Date().addingTimeInterval(7 * Self.day))) < 60)

            clock.advance(by: 7 * Self.day + 1)
            // A week on, the phone refreshes its session first.
            ann = try await expect(
                200, h.stack.client(.auth).call(AuthAPI.refresh, body: RefreshRequest(refreshToken: ann.refreshToken))
            ).decode(Session.self)
            let current = ann
            // Asked for at once from several phones: one top-up.
            let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<4 { group.addTask { try await h.betting.call(BettingAPI.refill, token: current.accessToken).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.sorted() == [200, 409, 409, 409])
            #expect(try await h.wallet(ann) == Wallet(balance: 10_000, currency: "EUR"))
            let entries = try await expect(200, h.betting.call(BettingAPI.transactions, token: ann.accessToken))
                .decode(Page<WalletTransaction>.self)
            #expect(entries.items.map(\.kind) == [.refill, .stake, .grant] && entries.items.first?.amount == 2500)
            #expect(try await h.betting.call(BettingAPI.refill).status == 401)
            // Back to the harness's own time, whose internal calls check the ledger after the test.
            clock.set(Date(timeIntervalSince1970: 0))
        }
    }

    @Test("the rule: full wallets need none, a top-up fills to the grant, and none comes sooner than the interval after the last")
    func rule() {
        let rule = WalletRefill(grant: 10_000, every: 7 * Self.day)
        let granted = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(rule.decide(balance: 10_000, lastTopUp: granted, at: granted.addingTimeInterval(30 * Self.day)) == .full)
        #expect(rule.decide(balance: 12_000, lastTopUp: nil, at: granted) == .full)
        #expect(
            rule.decide(balance: 0, lastTopUp: granted, at: granted.addingTimeInterval(Self.day))
                == .notDue(availableAt: granted.addingTimeInterval(7 * Self.day)))
        #expect(rule.decide(balance: 0, lastTopUp: granted, at: granted.addingTimeInterval(7 * Self.day)) == .topUp(10_000))
        #expect(rule.decide(balance: 2_350, lastTopUp: nil, at: granted) == .topUp(7_650))
    }
}
