import Contracts
import Foundation
import ServiceKit
import ServiceKitTesting
import Testing

/// What betting tells notify and chat: a ticket placed, a ticket settled — each once, committed with it.
@Suite("Ticket events")
struct TicketEventsTests {
    @Test(
        "a ticket placed is one event, a repeat of its key or a refused ticket none; its settlement is one more, and a result delivered again none",
        arguments: TestStore.all)
    func placedAndSettledOnce(store: TestStore) async throws {
        try await BettingHarness.with(store: store, config: ["betting.events.subscribers": "notify", "betting.events.poll.ms": "50"]) {
            h in
            try await RecordingSubscriber.with { notify in
                h.stack.runner.directory.set(.notify, url: notify.url)
                let ann = try await h.player("Ann")
                let derby = try await h.fixture("Flora", "Levadia", odds: ("1.50", "3.10", "4.00"))
                let request = PlaceTicket(stake: 1000, selections: [derby.pick(.home)], share: true)
                let ticket = try await expect(201, h.place(request, as: ann, key: "ann-1")).decode(Ticket.self)
                #expect(try await expect(201, h.place(request, as: ann, key: "ann-1")).decode(Ticket.self) == ticket)
                // Refused in the transaction that would have placed it: the odds moved.
                let stale = PlaceTicket(stake: 1000, selections: [TicketPick(fixtureId: derby.id, pick: .draw, odds: Odds("9.990")!)])
                #expect(try await h.place(stale, as: ann).problemCode == "ODDS_CHANGED")

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
    }
}
