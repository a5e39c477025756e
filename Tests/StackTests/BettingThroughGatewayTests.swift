import Configuration
import Contracts
import Foundation
import HuddleKit
import Logging
import ProviderStandIns
import ServiceKitTesting
import Testing

/// The Bet tab as an app sees it through the gateway: games and betting poll the providers' stand-in,
/// the user builds a slip with HuddleKit, places the ticket over a connection that drops the first
/// answer, shares it in the global chat, and the ticket settles when the stand-in plays both matches to
/// full time: its receipt and its win come to the inbox.
@Suite("Betting through the gateway", .serialized)
struct BettingThroughGatewayTests {
    @Test(
        "a user picks two matches, watches the potential winnings, places and shares the ticket once across a dropped answer, finds its receipt in the inbox and its post in the global chat, and is paid and told at full time",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func ticketFromSlipToPayout(store: TestStore) async throws {
        try await StackTests.withFootballStack(
            store: store,
            config: StackTests.bettingOnTheFeed.merging(["betting.wallet.grant": "100000"]) { _, new in new },
            body: { gateway, feed in
                let kickoff = Date().addingTimeInterval(1800)
                var fixtures: [Int] = []
                for (home, away, odds) in [("Levadia", "Flora", ["1.80", "3.50", "4.20"]), ("Kalju", "Narva", ["2.50", "3.20", "2.75"])] {
                    fixtures.append(
                        try await feed.schedule(
                            .init(home: home, away: away, kickoff: kickoff, odds: .init(home: odds[0], draw: odds[1], away: odds[2]))))
                }

                let network = DroppingTransport(dropAnswerOf: "/v1/betting/tickets")
                let app = HuddleClient(baseURL: URL(string: gateway.baseURL)!, transport: network, tokens: InMemoryTokenStore())
                try await app.register(
                    email: "punter-\(UUID().uuidString.prefix(8))@example.com", password: "correct horse battery", name: "Punter")
                let priced = try await poll {
                    try await app.send(BettingAPI.fixtures, query: BettingAPI.fixturesDay(CalendarDay(containing: kickoff))).items
                        .filter { $0.odds != nil && $0.open }
                } until: {
                    $0.count == 2
                }
                try #require(priced.count == 2)
                // Both kick off at once, so the list's order between them is not theirs to rely on.
                let levadia = try #require(priced.first { $0.home.name == "Levadia" })
                let kalju = try #require(priced.first { $0.home.name == "Kalju" })

                // The slip as the user builds it: each change answers the new potential winnings.
                _ = try await app.send(BettingAPI.pick, levadia.id, body: SlipPick(pick: .home))
                var slip = try await app.send(BettingAPI.stake, body: SlipStake(stake: 1000))
                #expect(slip.potentialWinnings == 1800)
                slip = try await app.send(BettingAPI.pick, kalju.id, body: SlipPick(pick: .away))
                #expect(slip.potentialWinnings == 4950 && slip.totalOdds == Odds("4.950"))

                let request = PlaceTicket(
                    stake: slip.stake ?? 0,
                    selections: slip.selections.map { TicketPick(fixtureId: $0.fixtureId, pick: $0.pick, odds: $0.odds ?? Odds("1.001")!) },
                    share: true)
                let ticket = try await app.send(BettingAPI.placeTicket, body: request)
                #expect(network.dropped == 1 && ticket.status == .open && ticket.potentialWinnings == 4950)
                #expect(try await app.send(BettingAPI.wallet).balance == 99_000)
                #expect(try await app.send(BettingAPI.tickets).items.map(\.id) == [ticket.id])

                // Placed once, so one receipt (kept in the inbox, not pushed) and one post in the global chat.
                let receipt = try await poll {
                    try await app.send(NotifyAPI.inbox).items
                } until: {
                    !$0.isEmpty
                }
                #expect(receipt.map(\.category) == [.ticket] && receipt.first?.data.ticketId == ticket.id)
                #expect(receipt.first?.title == "Ticket placed")
                #expect(
                    receipt.first?.body
                        == "Stake €10.00 at odds 4.950, pays €49.50. Levadia v Flora: 1 @ 1.800; Kalju v Narva: 2 @ 2.750."
                )
                let global = try #require(try await app.send(ChatAPI.rooms).items.first { $0.kind == .global })
                let posts = try await poll {
                    try await app.send(ChatAPI.messages, global.id).items.filter { $0.clientMessageId == "ticket-\(ticket.id)" }
                } until: {
                    !$0.isEmpty
                }
                #expect(posts.count == 1 && posts.first?.senderName == "Punter")
                #expect(posts.first?.text.hasPrefix("🎟️ My ticket: 2 selections at 4.950, stake 10.00 EUR, pays 49.50 EUR.") == true)

                // Both matches are played: 1-0 to Levadia, 1-2 to Narva.
                for (fixture, goals) in zip(fixtures, [[FootballControl.Side.home], [.away, .home, .away]]) {
                    try await feed.setStatus(fixture, "1H", elapsed: 1)
                    for (minute, side) in goals.enumerated() {
                        try await feed.record(fixture, .goal(side, by: "Scorer \(minute)", at: 10 + minute))
                    }
                    try await feed.setStatus(fixture, "FT", elapsed: 90)
                }
                let settled = try await poll {
                    try await app.send(BettingAPI.ticket, ticket.id)
                } until: {
                    $0.status != .open
                }
                #expect(settled.status == .won && settled.payout == 4950 && settled.selections.map(\.result) == [.won, .won])
                #expect(try await app.send(BettingAPI.wallet).balance == 99_000 + 4950)
                let entries = try await app.send(BettingAPI.transactions).items
                #expect(entries.map(\.kind) == [.payout, .stake, .grant] && entries.map(\.amount) == [4950, -1000, 100_000])
                let told = try await poll {
                    try await app.send(NotifyAPI.inbox).items
                } until: {
                    $0.count == 2
                }
                #expect(told.first?.title == "Your ticket won" && told.first?.data.ticketId == ticket.id)
                #expect(told.first?.body.hasPrefix("€49.50 is in your wallet.") == true)
            })
    }
}
