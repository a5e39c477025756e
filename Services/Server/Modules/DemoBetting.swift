import Contracts
import Foundation
import HuddleEffects
import Logging
import NIOHTTP1
import ProviderStandIns
import ServiceClients

/// A settled ticket in Bruno's history, made the way a user's would be: the providers' stand-in
/// schedules a match with odds, games picks it up and betting prices it, Bruno bets on the home side
/// through the betting API, and the stand-in plays the match to a 2–1 home win, which games reports
/// and betting settles. It takes as long as games' and betting's polls (up to about a minute on
/// `huddle`'s settings), so `huddle` runs it beside the stack rather than before announcing it.
enum DemoBetting {
    static let home = "Huddle Rovers"
    static let away = "Demo City"

    /// Whether Bruno has a settled ticket at the end (or had one already).
    static func seed(authURL: String, bettingURL: String, feedURL: String, logger: Logger) async -> Bool {
        let betting = APIClient(baseURL: bettingURL), feed = FootballControlClient(baseURL: feedURL)
        do {
            let login = LoginRequest(email: DemoData.bruno.email, password: DemoData.bruno.password)
            let token = try await APIClient(baseURL: authURL).value(AuthAPI.login, body: login).accessToken
            let history = try await betting.value(BettingAPI.tickets, query: Query.limit(100), token: token)
            if history.items.contains(where: { $0.status != .open }) { return true }
            let kickoff = Effects.system.now().addingTimeInterval(20 * 60)
            let scheduled = try await feed.schedule(
                .init(home: home, away: away, kickoff: kickoff, odds: .init(home: "1.85", draw: "3.60", away: "4.20")))
            let fixture = try await priced(betting: betting, kickoff: kickoff)
            guard let odds = fixture.odds?.home else { throw DemoFailure(description: "\(home) has no odds") }
            let ticket = try await betting.value(
                BettingAPI.placeTicket,
                body: PlaceTicket(stake: 1000, selections: [TicketPick(fixtureId: fixture.id, pick: .home, odds: odds)]), token: token,
                headers: [Routes.Header.idempotencyKey: "demo-\(scheduled)"])
            try await play(fixture: scheduled, on: feed)
            let settled = try await until("the ticket settles") {
                let current = try await betting.value(BettingAPI.ticket, ticket.id, token: token)
                return current.status == .open ? nil : current
            }
            logger.info("demo: \(DemoData.bruno.email)'s ticket on \(home)–\(away) settled \(settled.status.rawValue)")
            return true
        } catch {
            logger.warning("demo ticket incomplete: \(error)")
            return false
        }
    }

    /// The fixture once games has reported it and betting has its odds.
    private static func priced(betting: APIClient, kickoff: Date) async throws -> Fixture {
        try await until("betting prices \(home)–\(away)") {
            let fixtures = try await betting.value(BettingAPI.fixtures, query: BettingAPI.fixturesDay(CalendarDay(containing: kickoff)))
            return fixtures.items.first { $0.home.name == home && $0.away.name == away && $0.odds != nil && $0.open }
        }
    }

    /// Kick-off, two home goals and an away one, full time.
    private static func play(fixture: Int, on feed: FootballControlClient) async throws {
        try await feed.setStatus(fixture, "1H", elapsed: 1)
        for (minute, side, player) in [(12, FootballControl.Side.home, "A. Rover"), (40, .away, "C. Demo"), (77, .home, "B. Rover")] {
            try await feed.record(fixture, .goal(side, by: player, at: minute))
        }
        try await feed.setStatus(fixture, "FT", elapsed: 90)
    }

    /// Asks every second for up to three minutes.
    private static func until<T>(_ what: String, _ attempt: () async throws -> T?) async throws -> T {
        for _ in 0..<180 {
            if let value = try await attempt() { return value }
            try await Task.sleep(for: .seconds(1))
        }
        throw DemoFailure(description: "gave up waiting until \(what)")
    }
}
