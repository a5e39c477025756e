import Configuration
import Contracts
import Foundation
import Logging
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting
import Testing

@testable import HuddleModules

/// `huddle demo --url`: the demo seeded into a running stack through its gateway only.
@Suite("Demo data for any stack", .serialized)
struct DemoThroughGatewayTests {
    static let logger = Logger(label: "demo-test")

    @Test(
        "with the gates on, the demo players hold what they bought: Bruno the place and leagues, Chloe everything, Dmitri nothing",
        StackTests.embeddedOnly)
    func seedsUnlocks() async throws {
        try await PurchaseGatesTests.withGatedStack(store: .sqlite, adminEmail: DemoData.administrator.email) { gateway, appStore in
            let url = gateway.baseURL
            for _ in 1...2 {
                #expect(
                    await DemoSeed.run(auth: url, catalog: nil, games: nil, purchases: url, appStore: appStore.baseURL, logger: Self.logger)
                )
            }
            func held(_ account: DemoData.Account) async throws -> [Entitlement] {
                let session = try await gateway.value(AuthAPI.login, body: LoginRequest(email: account.email, password: account.password))
                return try await gateway.value(PurchasesAPI.entitlements, token: session.accessToken).items.map(\.entitlement)
            }
            let (bruno, chloe, dmitri) = (try await held(DemoData.bruno), try await held(DemoData.chloe), try await held(DemoData.dmitri))
            #expect(bruno == [.location, .leagues] && chloe == [.location, .join, .leagues] && dmitri == [])
            let dmitriSession = try await gateway.value(
                AuthAPI.login, body: LoginRequest(email: DemoData.dmitri.email, password: DemoData.dmitri.password))
            let dmitrisTeams = try await gateway.value(
                CatalogAPI.teams, query: CatalogAPI.teamMember(.me), token: dmitriSession.accessToken
            ).items
            #expect(!dmitrisTeams.contains { $0.name == "Kalev Spikers" }, "his request to join was refused")
        }
    }

    @Test("seeds accounts, places, news, teams and games through the gateway, and adds nothing the second time")
    func seedsOnce() async throws {
        // Seeding twice and reading it all back is more than one phone sends in a second.
        let unlimited = ["gateway.ratelimit.rate": "100000", "gateway.ratelimit.burst": "100000"]
        try await StackTests.withStack(store: .sqlite, adminEmail: DemoData.administrator.email, config: unlimited) { gateway in
            let url = gateway.baseURL
            #expect(
                await DemoSeed.run(
                    auth: url, catalog: url, games: url, chat: url, notify: url, moderation: url, media: url, logger: Self.logger))
            let once = [DemoCatalog.parks.count, DemoCatalog.venues.count, DemoCatalog.news.count]
            #expect(try await counts(gateway) == once)
            let pictured = try await pictures(gateway)
            #expect(
                await DemoSeed.run(
                    auth: url, catalog: url, games: url, chat: url, notify: url, moderation: url, media: url, logger: Self.logger))
            #expect(try await counts(gateway) == once)
            // Every player has a face and the Kalev Spikers a logo, the same ones after seeding again.
            #expect(pictured.count == DemoData.players.count + 2 && pictured.allSatisfy { $0 != nil })
            #expect(try await pictures(gateway) == pictured)

            let courses = try await gateway.call(CatalogAPI.courses, query: Query.limit(100)).decode(Page<Course>.self)
            #expect(Set(courses.items.map(\.name)).isSuperset(of: DemoCatalog.parks.map(\.name)))
            let venues = try await gateway.call(CatalogAPI.venues, query: Query.limit(100)).decode(Page<Venue>.self)
            #expect(Set(venues.items.map(\.name)).isSuperset(of: DemoCatalog.venues.map(\.name)))
            let news = try await gateway.call(CatalogAPI.news, query: Query.limit(100)).decode(Page<NewsArticle>.self)
            #expect(Set(news.items.map(\.url)).isSuperset(of: DemoCatalog.news.map(\.url)))

            let bruno = try await gateway.call(
                AuthAPI.login, body: LoginRequest(email: DemoData.bruno.email, password: DemoData.bruno.password)
            ).decode(Session.self)
            let teams = try await gateway.call(CatalogAPI.teams, query: CatalogAPI.teamMember(.me), token: bruno.accessToken).decode(
                Page<Team>.self)
            #expect(!teams.items.isEmpty)
            let recruiting = try await poll {
                try await gateway.call(
                    SearchAPI.teams, query: Query.place(DemoCatalog.casey.coordinates) + Query.radiusKm(30) + SearchAPI.recruiting(true),
                    token: bruno.accessToken
                ).decode(Page<Nearby<TeamResult>>.self).items.map(\.item.name)
            } until: {
                !$0.isEmpty
            }
            #expect(recruiting == ["Casey Casuals"])
            // Bruno's pick-up is on the Casey Race centre's page, with the players he already has.
            let caseyRace = try #require(venues.items.first { $0.name.hasPrefix("Casey Race") })
            let atCaseyRace = try await gateway.call(GamesAPI.venueGames, caseyRace.id, token: bruno.accessToken).decode(Page<Game>.self)
            #expect(atCaseyRace.items.map(\.alreadyGoing) == [4])
            let games = try await gateway.call(GamesAPI.myGames, query: Query.mineScope(.mine), token: bruno.accessToken).decode(
                Page<Game>.self)
            #expect(!games.items.isEmpty)
            // Every demo game says where its local time is, so its reminders read in it.
            #expect(games.items.allSatisfy { $0.timeZone != nil })
            // Profiles reach search through auth's events.
            let found = try await poll {
                try await gateway.call(SearchAPI.players, query: SearchAPI.playerText("chloe"), token: bruno.accessToken).decode(
                    Page<PlayerResult>.self
                ).items
                    .map(
                        \.name)
            } until: {
                !$0.isEmpty
            }
            #expect(found == [DemoData.chloe.name])
            // The conversation in the global room, once though seeded twice.
            let global = try #require(
                try await gateway.call(ChatAPI.rooms, token: bruno.accessToken).decode(Page<ChatRoom>.self).items.first {
                    $0.kind == .global
                })
            let said = try await gateway.call(ChatAPI.messages, global.id, query: Query.limit(100), token: bruno.accessToken)
                .decode(Page<ChatMessage>.self).items.filter { $0.clientMessageId.hasPrefix("demo-chat-") }
            #expect(said.map(\.text).reversed() == DemoChat.conversation.map(\.text) + [DemoModeration.spam])
            // Chloe reported the spam, once.
            let chloe = try await gateway.call(
                AuthAPI.login, body: LoginRequest(email: DemoData.chloe.email, password: DemoData.chloe.password)
            )
            .decode(Session.self)
            let reports = try await gateway.call(ModerationAPI.myReports, token: chloe.accessToken).decode(Page<Report>.self).items
            #expect(
                reports.map(\.reason) == [.spam] && reports.first?.subject.id.uuid == said.first { $0.text == DemoModeration.spam }?.id.uuid
            )
            // Bruno's iPhone, registered before the rest, so Chloe's request to join his team notified him.
            let phones = try await gateway.call(NotifyAPI.devices, token: bruno.accessToken).decode(Page<Device>.self)
            #expect(phones.items.map(\.token) == [DemoNotify.brunoIPhone])
            let inbox = try await poll {
                try await gateway.call(NotifyAPI.inbox, query: Query.limit(100), token: bruno.accessToken).decode(InboxPage.self).items
            } until: {
                $0.contains { $0.category == .joinRequest }
            }
            #expect(inbox.contains { $0.category == .joinRequest && $0.body.contains(DemoData.chloe.name) })
            // The Kalev Spikers' game asks Bruno for an answer he can give from the push, without a session.
            let asked = try await poll(every: .milliseconds(250)) {
                try await gateway.call(NotifyAPI.inbox, query: Query.limit(100), token: bruno.accessToken).decode(InboxPage.self).items
            } until: {
                $0.contains { $0.category == .newGame && $0.data.rsvpToken != nil }
            }
            let newGame = try #require(asked.first { $0.category == .newGame && $0.data.rsvpToken != nil })
            let gameID = try #require(newGame.data.gameId), token = try #require(newGame.data.rsvpToken)
            _ = try await expect(204, gateway.call(GamesAPI.rsvp, gameID, body: RSVPAnswer(token: token, status: .going)))
            let roster = try await expect(200, gateway.call(GamesAPI.roster, gameID, token: bruno.accessToken)).decode(
                Page<RosterEntry>.self
            )
            .items
            #expect(roster.contains { $0.name == DemoData.bruno.name && $0.status == .going })
            // Dmitri reads Huddle in Estonian.
            let dmitri = try await gateway.value(
                AuthAPI.login, body: LoginRequest(email: DemoData.dmitri.email, password: DemoData.dmitri.password))
            #expect(try await gateway.value(AuthAPI.me, token: dmitri.accessToken).locale == "et")
            // Chloe's word to the team, once though seeded twice.
            let teamRoom = try #require(
                try await expect(200, gateway.call(ChatAPI.rooms, query: ChatAPI.roomKind(.team), token: bruno.accessToken))
                    .decode(Page<ChatRoom>.self).items.first { $0.name == "Kalev Spikers" })
            let told = try await expect(200, gateway.call(ChatAPI.messages, teamRoom.id, token: bruno.accessToken))
                .decode(Page<ChatMessage>.self).items
            #expect(told.map(\.text) == [DemoChat.teamMessage])
        }
    }

    /// The demo players' pictures (the administrator's too) and the Kalev Spikers' logo, as others see them.
    private func pictures(_ gateway: TestClient) async throws -> [PictureSizes?] {
        let chloe = try await gateway.value(
            AuthAPI.login, body: LoginRequest(email: DemoData.chloe.email, password: DemoData.chloe.password))
        var found: [PictureSizes?] = []
        for account in [DemoData.administrator] + DemoData.players {
            let session = try await gateway.value(AuthAPI.login, body: LoginRequest(email: account.email, password: account.password))
            found.append(try await gateway.value(AuthAPI.profile, session.user.id, token: chloe.accessToken).picture)
        }
        let teams = try await gateway.value(CatalogAPI.teams, query: CatalogAPI.teamMember(.me), token: chloe.accessToken).items
        found.append(teams.first { $0.name == DemoPictures.logoTeam }?.logo)
        return found
    }

    @Test("Bruno's demo ticket is placed on a match the stand-in schedules and plays, and settles once", StackTests.embeddedOnly)
    func settledTicket() async throws {
        let standIn = ConfigReader(provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0"]))
        try await withServerOnPort0({ buildProviderStandIns(reader: standIn, logger: Self.logger, onListening: $0) }) { feedURL in
            let config = [
                "games.matches.provider.url": feedURL, "games.matches.provider.key": "huddle-dev-football-key",
                "games.matches.poll.live.ms": "200", "games.matches.poll.day.ms": "200", "betting.odds.provider.url": feedURL,
                "betting.odds.provider.key": "huddle-dev-football-key",
                "betting.odds.poll.ms": "200", "betting.wallet.grant": "100000",
            ]
            try await StackTests.withStack(store: .sqlite, config: config) { gateway in
                let url = gateway.baseURL
                let bruno = try #require(await DemoData.seed(authURL: url, logger: Self.logger)[DemoData.bruno.email])
                #expect(await DemoBetting.seed(authURL: url, bettingURL: url, feedURL: feedURL, logger: Self.logger))
                #expect(await DemoBetting.seed(authURL: url, bettingURL: url, feedURL: feedURL, logger: Self.logger))
                let tickets = try await gateway.call(BettingAPI.tickets, token: bruno.accessToken).decode(Page<Ticket>.self).items
                #expect(tickets.count == 1)
                let ticket = try #require(tickets.first)
                #expect(ticket.status == .won && ticket.payout == 1850 && ticket.selections.map(\.home) == [DemoBetting.home])
                let wallet = try await gateway.call(BettingAPI.wallet, token: bruno.accessToken).decode(Wallet.self)
                #expect(wallet.balance == 100_000 - 1000 + 1850)
                // Ids are lower-case on the wire, wallet transactions' as every other.
                let entries = try await gateway.call(BettingAPI.transactions, token: bruno.accessToken)
                #expect(entries.status == 200 && entries.text.contains(#""id":""#))
                #expect(entries.text.firstMatch(of: #/"id":"[0-9a-fA-F-]*[A-F]/#) == nil)
                // The match kicked off before it was over.
                let match = try await gateway.call(GamesAPI.match, ticket.selections[0].fixtureId).decode(Match.self)
                #expect(match.kickoff <= match.updatedAt)
            }
        }
    }

    /// The demo's courses, venues and articles in the stack. A deployed stack may hold others, and
    /// the journeys add to it meanwhile, so only the demo's own are counted.
    private func counts(_ gateway: TestClient) async throws -> [Int] {
        let parks = Set(DemoCatalog.parks.map(\.name)), venues = Set(DemoCatalog.venues.map(\.name))
        let articles = Set(DemoCatalog.news.map(\.url))
        return [
            try await gateway.call(CatalogAPI.courses, query: Query.limit(100)).decode(Page<Course>.self).items.filter {
                parks.contains($0.name)
            }.count,
            try await gateway.call(CatalogAPI.venues, query: Query.limit(100)).decode(Page<Venue>.self).items.filter {
                venues.contains($0.name)
            }
            .count,
            try await gateway.call(CatalogAPI.news, query: Query.limit(100)).decode(Page<NewsArticle>.self).items.filter {
                articles.contains($0.url)
            }.count,
        ]
    }

    @Test("a stack where the demo administrator is not an administrator is reported as incomplete", StackTests.embeddedOnly)
    func withoutAdministrator() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let url = gateway.baseURL
            let complete = await DemoSeed.run(auth: url, catalog: url, games: url, logger: Self.logger)
            #expect(!complete)
            let courses = try await gateway.call(CatalogAPI.courses).decode(Page<Course>.self)
            #expect(courses.items.isEmpty)
        }
    }
}
