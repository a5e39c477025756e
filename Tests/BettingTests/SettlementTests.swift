import Contracts
import Foundation
import ServerContracts
import ServiceKitTesting
import Testing

@Suite("Settlement from match results")
struct SettlementTests {
    @Test("Won, lost and partly void tickets settle from results after regular time, and each pays once", arguments: TestStore.all)
    func settles(store: TestStore) async throws {
        try await BettingHarness.with(store: store) { h in
            let ann = try await h.player()
            let derby = try await h.fixture("Flora", "Levadia", odds: ("1.50", "3.10", "4.00"))
            let cup = try await h.fixture("Kalju", "Narva", odds: ("2.25", "3.30", "2.50"))
            let called = try await h.fixture("Tammeka", "Trans", odds: ("1.80", "3.50", "4.20"))
            let double = try await expect(
                201, h.place(PlaceTicket(stake: 1000, selections: [derby.pick(.home), cup.pick(.draw)]), as: ann)
            )
            .decode(Ticket.self)
            let partlyVoid = try await expect(
                201, h.place(PlaceTicket(stake: 1000, selections: [derby.pick(.home), called.pick(.away)]), as: ann)
            ).decode(Ticket.self)
            let lost = try await expect(201, h.place(PlaceTicket(stake: 1000, selections: [derby.pick(.away)]), as: ann)).decode(
                Ticket.self)
            #expect(try await h.wallet(ann).balance == 7000)

            try await h.finish(derby, status: .fullTime, regularTime: .init(home: 2, away: 1))
            #expect(try await h.settled(lost.id, as: ann).payout == 0)
            #expect(try await h.ticket(double.id, as: ann).status == .open)
            // Level after 90 minutes, won by the home side after extra time: the draw stands.
            try await h.finish(cup, status: .afterExtraTime, regularTime: .init(home: 1, away: 1))
            let won = try await h.settled(double.id, as: ann)
            #expect(won.status == .won && won.payout == 4950 && won.selections.map(\.result) == [.won, .won])
            try await h.finish(called, status: .cancelled, regularTime: nil)
            let voidLeg = try await h.settled(partlyVoid.id, as: ann)
            #expect(voidLeg.status == .won && voidLeg.payout == 1500 && voidLeg.selections.map(\.result) == [.won, .void])
            #expect(try await h.wallet(ann).balance == 7000 + 4950 + 1500)

            // The same event delivered again, and the same result under a new event id: nothing moves.
            let final = h.state(cup, .afterExtraTime, regularTime: .init(home: 1, away: 1))
            let eventID = EventID.timeOrdered(at: Date())
            try await h.announce([final], provider: cup.provider, ids: [eventID])
            try await h.announce([final, final], provider: cup.provider, ids: [eventID, eventID])
            try await h.finish(derby, status: .fullTime, regularTime: .init(home: 2, away: 1))
            try await h.finish(cup, status: .afterExtraTime, regularTime: .init(home: 1, away: 1), version: 3)
            #expect(try await h.wallet(ann).balance == 13_450)
            let entries = try await expect(200, h.betting.call(BettingAPI.transactions, token: ann.accessToken))
                .decode(Page<WalletTransaction>.self)
            #expect(entries.items.map(\.kind) == [.payout, .payout, .stake, .stake, .stake, .grant])
        }
    }

    @Test("A cancelled fixture reported again as not started, as a restarted feed would, stays cancelled and closed")
    func cancelledStaysClosed() async throws {
        try await BettingHarness.with { h in
            let ann = try await h.player()
            let cancelled = try await h.fixture("Flora", "Levadia")
            let ticket = try await expect(201, h.place(PlaceTicket(stake: 1000, selections: [cancelled.pick(.home)]), as: ann)).decode(
                Ticket.self)
            try await h.finish(cancelled, status: .cancelled, regularTime: nil)
            #expect(try await h.settled(ticket.id, as: ann).status == .void)
            try await h.announce(h.state(cancelled, .notStarted, version: 3), provider: cancelled.provider)
            try await h.announce(h.state(cancelled, .firstHalf, version: 4), provider: cancelled.provider)
            let fixture = try await h.waitFor(cancelled.id) { $0.status == .cancelled }
            #expect(!fixture.open)
            let again = try await h.place(PlaceTicket(stake: 1000, selections: [cancelled.pick(.home)]), as: ann)
            #expect(again.status == 422 && again.problem?.code == ProblemCode.fixtureStarted.code)
            #expect(try await h.wallet(ann).balance == 10_000)
        }
    }

    @Test("A ticket whose every leg is void returns the stake")
    func voidTicket() async throws {
        try await BettingHarness.with { h in
            let ann = try await h.player()
            let abandoned = try await h.fixture("Flora", "Levadia")
            let ticket = try await expect(201, h.place(PlaceTicket(stake: 2500, selections: [abandoned.pick(.draw)]), as: ann)).decode(
                Ticket.self)
            try await h.finish(abandoned, status: .abandoned, regularTime: nil)
            let settled = try await h.settled(ticket.id, as: ann)
            #expect(settled.status == .void && settled.payout == 2500 && settled.settledAt != nil)
            #expect(try await h.wallet(ann).balance == 10_000)
            let entries = try await expect(200, h.betting.call(BettingAPI.transactions, token: ann.accessToken))
                .decode(Page<WalletTransaction>.self)
            #expect(entries.items.first?.kind == .refund && entries.items.first?.amount == 2500)
        }
    }

    @Test("A postponed match voids its legs when its deadline passes, unless it kicks off again in time", arguments: TestStore.all)
    func postponed(store: TestStore) async throws {
        // A deadline 2 s after the postponed kickoff in place of 48 hours.
        try await BettingHarness.with(store: store, config: ["betting.postponed.void.ms": "2000"]) { h in
            let ann = try await h.player()
            let replayed = try await h.fixture("Flora", "Levadia")
            let dropped = try await h.fixture("Kalju", "Narva")
            let kept = try await expect(201, h.place(PlaceTicket(stake: 1000, selections: [replayed.pick(.home)]), as: ann)).decode(
                Ticket.self)
            let voided = try await expect(201, h.place(PlaceTicket(stake: 1000, selections: [dropped.pick(.home)]), as: ann)).decode(
                Ticket.self)

            // Both postponed as they were about to kick off; one is re-dated within the allowance (in
            // the same delivery, so that a loaded machine cannot let its deadline pass in between).
            let now = Date()
            try await h.announce(
                [
                    h.state(replayed, .postponed, kickoff: now),
                    h.state(replayed, .notStarted, kickoff: now.addingTimeInterval(1.5), version: 3),
                ],
                provider: replayed.provider)
            try await h.finish(dropped, status: .postponed, regularTime: nil, kickoff: now.addingTimeInterval(0.1))
            let refunded = try await h.settled(voided.id, as: ann)
            #expect(refunded.status == .void && refunded.payout == 1000)
            // The sweep that voided the other has passed this one's old deadline too.
            #expect(try await h.ticket(kept.id, as: ann).status == .open)
            try await h.finish(replayed, status: .fullTime, regularTime: .init(home: 1, away: 0), version: 4)
            #expect(try await h.settled(kept.id, as: ann).payout == 2100)
        }
    }

    @Test(
        "A match the provider stopped reporting in play voids its legs on a postponed match's terms, unless it is reported again in time",
        arguments: TestStore.all)
    func silentMatch(store: TestStore) async throws {
        // The allowance 2 s after the last report in place of 48 hours.
        try await BettingHarness.with(store: store, config: ["betting.postponed.void.ms": "2000"]) { h in
            let ann = try await h.player()
            let silent = try await h.fixture("Flora", "Levadia")
            let resumed = try await h.fixture("Kalju", "Narva")
            let voided = try await expect(201, h.place(PlaceTicket(stake: 1000, selections: [silent.pick(.home)]), as: ann)).decode(
                Ticket.self)
            let kept = try await expect(201, h.place(PlaceTicket(stake: 1000, selections: [resumed.pick(.home)]), as: ann)).decode(
                Ticket.self)
            let now = Date()
            for priced in [silent, resumed] {
                var quiet = h.state(priced, .secondHalf)
                quiet.silentSince = now
                try await h.announce(quiet, provider: priced.provider)
            }
            // Reported again within the allowance: its deadline is taken off.
            try await h.announce(h.state(resumed, .secondHalf, version: 3), provider: resumed.provider)
            let refunded = try await h.settled(voided.id, as: ann)
            #expect(refunded.status == .void && refunded.payout == 1000)
            #expect(try await h.ticket(kept.id, as: ann).status == .open)
        }
    }

    @Test(
        "A deleted account's open ticket is void and refunded once; its wallet and tickets stay in the ledger under a pseudonym, and the ledger holds",
        arguments: TestStore.all)
    func deletedAccount(store: TestStore) async throws {
        try await BettingHarness.with(store: store, config: ["auth.events.subscribers": "betting"]) { h in
            let ann = try await h.player("Ann Leaving")
            let derby = try await h.fixture("Flora", "Levadia", odds: ("1.50", "3.10", "4.00"))
            _ = try await expect(201, h.place(PlaceTicket(stake: 1000, selections: [derby.pick(.home)]), as: ann))
            let before = try await h.ledger()

            _ = try await expect(
                204,
                h.stack.client(.auth).call(
                    AuthAPI.deleteMe, body: DeleteAccountRequest(password: "correct horse battery"), token: ann.accessToken))
            let refunded = try await poll {
                try await h.ledger()
            } until: {
                $0.transfers == before.transfers + 1
            }
            #expect(refunded.accounts == before.accounts && refunded.holds)
            // The match the ticket was on ends as it predicted: nothing more is paid.
            try await h.finish(derby, status: .fullTime, regularTime: .init(home: 2, away: 0))
            _ = try await h.waitFor(derby.id) { $0.status == .fullTime }
            #expect(try await h.ledger().transfers == refunded.transfers)
        }
    }
}
