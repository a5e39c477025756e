import Contracts
import Foundation
import NIOHTTP1
import ServiceHTTP
import ServiceKitTesting
import Testing

@Suite("My games and where games are")
struct MyGamesTests {
    /// `date` written in RFC 3339 with the given offset from UTC, as a phone in that zone would send it.
    static func local(_ date: Date, hoursFromUTC: Int) -> String {
        var style = Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: hoursFromUTC * 3600)!)
        style = style.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .colon)
        return date.formatted(style)
    }

    @Test("Upcoming games come soonest first across time zones, with team name, sport and my status, in pages", arguments: TestStore.all)
    func upcomingAcrossTimeZones(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let manager = try await h.player(), me = try await h.player()
            let team = try await h.team(managedBy: manager, players: [me])
            let base = GamesHarness.nextWeek
            // Sent as local times in Melbourne (+11), UTC, and Tallinn (+02): the UTC instants order them.
            let offsets = [(hours: 11, minutes: 90), (hours: 0, minutes: 30), (hours: 2, minutes: 60)]
            var created: [(GameID, Date)] = []
            for offset in offsets {
                let startsAt = base.addingTimeInterval(Double(offset.minutes) * 60)
                let body = #"{"kind":"team","teamId":"\#(team.id)","startsAt":"\#(Self.local(startsAt, hoursFromUTC: offset.hours))"}"#
                let game = try await expect(
                    201,
                    h.games.call(
                        GamesAPI.createGame, rawBody: Data(body.utf8), token: manager.accessToken,
                        headers: ["Content-Type": "application/json"])
                ).decode(Game.self)
                #expect(game.startsAt == startsAt)
                created.append((game.id, startsAt))
            }
            let pickup = try await h.pickup(by: me, startsAt: base.addingTimeInterval(45 * 60))
            _ = try await expect(200, h.answer(created[1].0, .going, as: me))

            let expected = (created + [(pickup.id, pickup.startsAt)]).sorted { $0.1 < $1.1 }.map(\.0)
            let first = try await expect(
                200,
                h.games.call(
                    GamesAPI.myGames, query: Query.mineScope(.mine) + GamesAPI.gamesWhen(.upcoming) + Query.limit(3), token: me.accessToken)
            ).decode(
                Page<Game>.self)
            #expect(first.items.count == 3 && first.nextCursor != nil)
            let second = try await h.games.call(
                GamesAPI.myGames, query: Query.mineScope(.mine) + Query.limit(3) + Query.cursor(first.nextCursor!), token: me.accessToken
            ).decode(
                Page<Game>.self)
            #expect((first.items + second.items).map(\.id) == expected)
            #expect(second.nextCursor == nil)
            let all = first.items + second.items
            #expect(all.filter { $0.kind == .team }.allSatisfy { $0.teamName == "Tallinn Spikers" && $0.sport == .volleyball })
            #expect(all.first { $0.id == created[1].0 }?.myStatus == .going)
            #expect(all.first { $0.id == pickup.id }?.myStatus == .going)

            // Pending: the team games I have not answered yet.
            let pending = try await h.games.call(
                GamesAPI.myGames, query: Query.mineScope(.mine) + GamesAPI.gamesWhen(.pending), token: me.accessToken
            ).decode(
                Page<Game>.self)
            #expect(pending.items.map(\.id) == [created[2].0, created[0].0])
            #expect(
                try await h.games.call(GamesAPI.myGames, rawQuery: "scope=mine&when=someday", token: me.accessToken).problem?.errors?.map(
                    \.field) == ["when"])
            #expect(try await h.games.call(GamesAPI.myGames, rawQuery: "scope=mine&cursor=%%%", token: me.accessToken).status == 422)
            #expect(try await h.games.call(GamesAPI.myGames, rawQuery: "scope=mine&cursor=QUFB", token: me.accessToken).status == 422)
        }
    }

    @Test("Past games come most recent first once they have started")
    func pastGames() async throws {
        try await GamesHarness.with { h in
            let me = try await h.player()
            // Games can only be planned ahead, so these start a few seconds from now (room for a busy
            // machine) and the test waits until they have.
            let soon = Date().addingTimeInterval(10)
            let earlier = try await h.pickup(by: me, startsAt: soon)
            let later = try await h.pickup(by: me, startsAt: soon.addingTimeInterval(0.5))
            let future = try await h.pickup(by: me)
            try await Task.sleep(for: .seconds(max(0, soon.timeIntervalSinceNow + 1)))
            let past = try await h.games.call(
                GamesAPI.myGames, query: Query.mineScope(.mine) + GamesAPI.gamesWhen(.past), token: me.accessToken
            ).decode(
                Page<Game>.self)
            #expect(past.items.map(\.id) == [later.id, earlier.id])
            let upcoming = try await h.games.call(GamesAPI.myGames, query: Query.mineScope(.mine), token: me.accessToken).decode(
                Page<Game>.self)
            #expect(upcoming.items.map(\.id) == [future.id])
            // A started game's roster is closed.
            let other = try await h.player()
            #expect(try await h.games.call(GamesAPI.joinGame, earlier.id, token: other.accessToken).problem?.code == "GAME_STARTED")
        }
    }

    @Test("The exact place is shown to participants and for public games; others get a distance", arguments: TestStore.all)
    func locationPrivacy(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let organizer = try await h.player(), player = try await h.player(), outsider = try await h.player()
            let protected = try await h.pickup(by: organizer, privacy: .protected)
            let open = try await h.pickup(by: organizer, privacy: .public)
            let here = Query.position(Coordinates(lat: 59.437, lng: 24.7536))  // Tallinn old town, about 2.2 km from Kadriorg

            let hidden = try await h.read(protected, as: outsider, query: here).decode(Game.self)
            #expect(hidden.location == nil)
            let expected = Geodesy.distanceMeters(from: Coordinates(lat: 59.437, lng: 24.7536), to: GamesHarness.kadriorg.coordinates)
            #expect(hidden.distanceMeters == expected && (2000...2400).contains(expected))
            #expect(try await h.read(protected, as: outsider).decode(Game.self).distanceMeters == nil)

            // Asking is not enough; being let in is.
            _ = try await h.join(protected, as: player)
            #expect(try await h.read(protected, as: player).decode(Game.self).location == nil)
            _ = try await expect(
                200, h.games.call(GamesAPI.approveGameRequest, protected.id, player.user.id, token: organizer.accessToken))
            #expect(try await h.read(protected, as: player).decode(Game.self).location == GamesHarness.kadriorg)
            #expect(try await h.read(protected, as: organizer).decode(Game.self).location == GamesHarness.kadriorg)
            #expect(try await h.read(open, as: outsider).decode(Game.self).location == GamesHarness.kadriorg)

            let badPosition = try await h.read(open, as: outsider, rawQuery: "lat=99&lng=10")
            #expect(badPosition.status == 422 && badPosition.problem?.errors?.map(\.field) == ["lat"])
            #expect(try await h.read(open, as: outsider, rawQuery: "lat=10").problem?.errors?.map(\.field) == ["lng"])
            #expect(try await h.read(open, as: outsider, rawQuery: "lat=north&lng=1").status == 422)
        }
    }
}
