import Contracts
import Foundation
import ServiceKitTesting
import Testing

/// A guest's slip priced without an account, and put as the player's slip once signed in.
@Suite("Guest quotes and whole slips")
struct SlipQuoteTests {
    @Test(
        "a guest prices picks at the current odds with no token, closed markets shown apart; once signed in the picks become the slip at once",
        arguments: TestStore.all)
    func guestQuoteThenSlip(store: TestStore) async throws {
        try await BettingHarness.with(store: store) { h in
            let derby = try await h.fixture("Flora", "Levadia", odds: ("2.00", "3.10", "4.00"))
            let cup = try await h.fixture("Kalju", "Narva", odds: ("1.50", "3.30", "2.50"))
            let started = try await h.fixture("Tammeka", "Vaprus")
            try await h.finish(started, status: .firstHalf, regularTime: nil)
            _ = try await h.waitFor(started.id) { !$0.open }
            let picks = [
                SlipSelection(fixtureId: derby.id, pick: .home), SlipSelection(fixtureId: cup.id, pick: .away),
                SlipSelection(fixtureId: started.id, pick: .draw),
            ]
            let quote = try await expect(200, h.betting.call(BettingAPI.quote, body: SlipRequest(stake: 1000, selections: picks)))
                .decode(Slip.self)
            #expect(quote.selections.map(\.open) == [true, true, false])
            #expect(quote.totalOdds == Odds("5.00") && quote.potentialWinnings == 5000)
            // The same refusals as a ticket's, without an account.
            let twice = try await h.betting.call(BettingAPI.quote, body: SlipRequest(stake: nil, selections: [picks[0], picks[0]]))
            #expect(twice.status == 422 && twice.problem?.code == "DUPLICATE_SELECTION")
            let tooBig = try await h.betting.call(BettingAPI.quote, body: SlipRequest(stake: 999_999, selections: picks))
            #expect(tooBig.status == 422 && tooBig.problem?.code == "STAKE_OUT_OF_RANGE")
            let unknown = try await h.betting.call(
                BettingAPI.quote, body: SlipRequest(stake: nil, selections: [SlipSelection(fixtureId: MatchID(), pick: .home)]))
            #expect(unknown.status == 422 && unknown.problem?.errors?.map(\.field) == ["selections[0].fixtureId"])

            // Signed in, the guest's open picks become the slip in one request; a closed one refuses it whole.
            let ann = try await h.player()
            let refused = try await h.betting.call(
                BettingAPI.replaceSlip, body: SlipRequest(stake: 1000, selections: picks), token: ann.accessToken)
            #expect(refused.status == 422 && refused.problem?.code == "FIXTURE_STARTED")
            #expect(try await expect(200, h.betting.call(BettingAPI.slip, token: ann.accessToken)).decode(Slip.self).selections.isEmpty)
            let slip = try await expect(
                200,
                h.betting.call(
                    BettingAPI.replaceSlip, body: SlipRequest(stake: 1000, selections: Array(picks.prefix(2))), token: ann.accessToken)
            ).decode(Slip.self)
            #expect(Set(slip.selections.map(\.fixtureId)) == [derby.id, cup.id] && slip.stake == 1000 && slip.potentialWinnings == 5000)
            // Replaced, not added to.
            let again = try await expect(
                200, h.betting.call(BettingAPI.replaceSlip, body: SlipRequest(stake: nil, selections: [picks[1]]), token: ann.accessToken)
            ).decode(Slip.self)
            #expect(again.selections.map(\.fixtureId) == [cup.id] && again.stake == nil)
            #expect(try await h.betting.call(BettingAPI.replaceSlip, body: SlipRequest(stake: nil, selections: [])).status == 401)
        }
    }
}
