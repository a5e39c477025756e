import Contracts
import Foundation
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import Testing

/// What betting tells notify and chat: a ticket placed, a ticket settled — each once, committed with it.
@Suite("Ticket events")
struct TicketEventsTests {
    @Test(
        "a ticket placed is one event, a repeat of its key or a refused ticket none; its settlement is one more, and a result delivered again none",
        arguments: TestStore.all)
    func placedAndSettledOnce(store: TestStore) async throws {
        try await Self.withAnnOnTheDerby(store: store) { h, notify, ann, derby in
            let request = PlaceTicket(stake: 1000, selections: [derby.pick(.home)], share: true)
            let ticket = try await expect(201, h.place(request, as: ann, key: "ann-1")).decode(Ticket.self)
            #expect(try await expect(201, h.place(request, as: ann, key: "ann-1")).decode(Ticket.self) == ticket)
            // Refused in the transaction that would have placed it: the odds moved.
            let stale = PlaceTicket(stake: 1000, selections: [TicketPick(fixtureId: derby.id, pick: .draw, odds: Odds("9.990")!)])
            #expect(try await h.place(stale, as: ann).problemCode == "ODDS_CHANGED")
            // Out before anything else commits: the ticket's commit woke the dispatcher, which
            // polls once a minute here.
            #expect(try await eventually { notify.events.count == 1 })

            try await h.finish(derby, status: .fullTime, regularTime: .init(home: 2, away: 0))
            _ = try await h.settled(ticket.id, as: ann)
            try await h.finish(derby, status: .fullTime, regularTime: .init(home: 2, away: 0))
            try await notify.waitFor(count: 2)
            try await Task.sleep(for: .milliseconds(300))

            let events = notify.events
            #expect(events.map(\.type) == [BettingEvent.ticketPlaced.name, BettingEvent.ticketSettled.name])
            let placed = try BettingEvent.ticketPlaced.payload(of: events[0])
            #expect(placed.ownerId == ann.user.id && placed.ticket == ticket && placed.shared)
            let settled = try BettingEvent.ticketSettled.payload(of: events[1])
            #expect(settled.ticket.id == ticket.id && settled.ticket.status == .won && settled.ticket.payout == 1500)
            #expect(settled.ticket.selections.map(\.result) == [.won] && !settled.shared)
            #expect(events.allSatisfy { $0.aggregateID == ticket.id.description })
        }
    }

    @Test(
        "a user's next ticket (one statement of its own on PostgreSQL) reaches subscribers at once, though betting polls its outbox once a minute",
        arguments: TestStore.all)
    func nextTicketWakesTheDispatcher(store: TestStore) async throws {
        try await Self.withAnnOnTheDerby(store: store) { h, notify, ann, derby in
            // The first opens her wallet in the transaction that places it; the next takes one statement.
            for (index, pick) in [derby.pick(.home), derby.pick(.away)].enumerated() {
                try await expect(201, h.place(PlaceTicket(stake: 100, selections: [pick]), as: ann))
                #expect(try await eventually { notify.events.count == index + 1 })
            }
        }
    }

    /// Betting sending its events to a recording notify, polling its outbox only once a minute, with
    /// Ann signed up and Flora–Levadia open for bets.
    static func withAnnOnTheDerby(
        store: TestStore, _ body: (BettingHarness, RecordingSubscriber, Session, BettingHarness.Priced) async throws -> Void
    ) async throws {
        try await BettingHarness.with(store: store, config: ["betting.events.subscribers": "notify", "betting.events.poll.ms": "60000"]) {
            h in
            try await RecordingSubscriber.with(standingIn: .notify) { notify in
                h.stack.runner.directory.set(.notify, url: notify.url)
                try await body(
                    h, notify, try await h.player("Ann"), try await h.fixture("Flora", "Levadia", odds: ("1.50", "3.10", "4.00")))
            }
        }
    }
}
