import Contracts
import Foundation
import NIOHTTP1
import ServiceHTTP
import ServiceKitTesting
import Testing

@Suite("Creating and changing games")
struct GameCreationTests {
    @Test(
        "A team's manager plans a team game: the team's place and attributes are the defaults, the manager is going and every other member invited, unless the manager does not play",
        arguments: TestStore.all)
    func teamGame(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let manager = try await h.player("Maria Manager")
            let pete = try await h.player("Pete Player"), paula = try await h.player("Paula Player")
            let team = try await h.team(managedBy: manager, players: [pete, paula], privacy: .protected)
            let game = try await h.create(
                CreateGameRequest(kind: .team, teamId: team.id, startsAt: GamesHarness.nextWeek, capacity: 12), by: manager)
            #expect(game.kind == .team && game.teamId == team.id && game.teamName == "Tallinn Spikers")
            #expect(game.sport == .volleyball && game.privacy == .protected && game.skill == .intermediate)
            #expect(game.location == GamesHarness.tallinn)
            #expect(game.organizerId == manager.user.id && game.capacity == 12 && game.goingCount == 1)
            #expect(game.myStatus == .going)

            let roster = try await h.roster(game, as: pete)
            #expect(Set(roster.map(\.userId)) == [manager.user.id, pete.user.id, paula.user.id])
            #expect(roster.allSatisfy { $0.status == ($0.userId == manager.user.id ? .going : .invited) })
            // A coach who does not play is invited with the others.
            let coached = try await h.create(
                CreateGameRequest(kind: .team, teamId: team.id, startsAt: GamesHarness.nextWeek, organizerGoing: false), by: manager)
            #expect(coached.goingCount == 0 && coached.myStatus == .invited)
            #expect(roster.first { $0.userId == pete.user.id }?.name == "Pete Player")

            // Members see it; the player's own view carries their status.
            let seen = try await h.read(game, as: pete).decode(Game.self)
            #expect(seen.myStatus == .invited && seen.location == GamesHarness.tallinn)
        }
    }

    @Test("Only the team's manager plans its games; an unknown team is a 422 naming teamId")
    func teamGameRefusals() async throws {
        try await GamesHarness.with { h in
            let manager = try await h.player(), player = try await h.player(), stranger = try await h.player()
            let team = try await h.team(managedBy: manager, players: [player])
            let byPlayer = try await h.games.call(
                GamesAPI.createGame, body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: GamesHarness.nextWeek),
                token: player.accessToken)
            #expect(byPlayer.status == 403)

            let unknown = try await h.games.call(
                GamesAPI.createGame, body: CreateGameRequest(kind: .team, teamId: TeamID(), startsAt: GamesHarness.nextWeek),
                token: manager.accessToken)
            #expect(unknown.status == 422 && unknown.problem?.errors?.map(\.field) == ["teamId"])

            let missing = try await h.games.call(
                GamesAPI.createGame, body: CreateGameRequest(kind: .team, startsAt: GamesHarness.nextWeek), token: manager.accessToken)
            #expect(missing.status == 422 && missing.problem?.errors?.map(\.field) == ["teamId"])

            let wrongSport = try await h.games.call(
                GamesAPI.createGame, body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: GamesHarness.nextWeek, sport: .soccer),
                token: manager.accessToken)
            #expect(wrongSport.status == 422 && wrongSport.problem?.errors?.map(\.field) == ["sport"])

            // A private team is unknown to someone with no standing, not forbidden.
            let hidden = try await h.team(managedBy: manager, privacy: .private, name: "Secret Six")
            let probe = try await h.games.call(
                GamesAPI.createGame, body: CreateGameRequest(kind: .team, teamId: hidden.id, startsAt: GamesHarness.nextWeek),
                token: stranger.accessToken)
            #expect(probe.status == 422)

            let mine = try await h.games.call(GamesAPI.myGames, query: Query.mineScope(.mine), token: player.accessToken).decode(
                Page<Game>.self)
            #expect(mine.items.isEmpty)
        }
    }

    @Test("When catalog is down, creating a team game is a 503 and writes nothing")
    func catalogDown() async throws {
        try await GamesHarness.with { h in
            let manager = try await h.player()
            let team = try await h.team(managedBy: manager)
            h.stack.runner.directory.set(.catalog, url: "http://127.0.0.1:1")
            let response = try await h.games.call(
                GamesAPI.createGame, body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: GamesHarness.nextWeek),
                token: manager.accessToken)
            #expect(response.status == 503)
            #expect(response.problem?.code == "DEPENDENCY_UNAVAILABLE")
            let mine = try await h.games.call(GamesAPI.myGames, query: Query.mineScope(.mine), token: manager.accessToken).decode(
                Page<Game>.self)
            #expect(mine.items.isEmpty)
            // Pick-up games need nothing from catalog and still work.
            _ = try await h.pickup(by: manager)
        }
    }

    @Test("A league's manager plans a game between two of its teams; their members are invited", arguments: TestStore.all)
    func leagueGame(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let commissioner = try await h.player("Lea League")
            let homeManager = try await h.player(), awayManager = try await h.player(), awayPlayer = try await h.player()
            let home = try await h.team(managedBy: homeManager, name: "Home Side")
            let away = try await h.team(managedBy: awayManager, players: [awayPlayer], name: "Away Side")
            let outsider = try await h.team(managedBy: homeManager, name: "Not In League")
            let league = try await expect(
                201,
                h.catalog.call(
                    CatalogAPI.createLeague,
                    body: CreateLeagueRequest(
                        name: "Tallinn Volley League", sport: .volleyball, skill: .intermediate, ageGroup: .adult, gender: .coed,
                        privacy: .public), token: commissioner.accessToken)
            ).decode(League.self)
            // Each team's manager accepts the league's request.
            for (team, manager) in [(home, homeManager), (away, awayManager)] {
                _ = try await expect(
                    202,
                    h.catalog.call(
                        CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: team.id), token: commissioner.accessToken))
                _ = try await expect(200, h.catalog.call(CatalogAPI.acceptLeague, team.id, league.id, token: manager.accessToken))
            }
            let request = CreateGameRequest(
                kind: .league, leagueId: league.id, homeTeamId: home.id, awayTeamId: away.id, startsAt: GamesHarness.nextWeek)
            let game = try await h.create(request, by: commissioner)
            #expect(game.homeTeamName == "Home Side" && game.awayTeamName == "Away Side" && game.leagueId == league.id)
            #expect(game.location == home.location && game.sport == .volleyball)
            let roster = try await h.roster(game, as: commissioner)
            #expect(Set(roster.map(\.userId)) == [homeManager.user.id, awayManager.user.id, awayPlayer.user.id])

            var foreign = request
            foreign.awayTeamId = outsider.id
            let refused = try await h.games.call(GamesAPI.createGame, body: foreign, token: commissioner.accessToken)
            #expect(refused.status == 422 && refused.problem?.errors?.map(\.field) == ["awayTeamId"])
            #expect(try await h.games.call(GamesAPI.createGame, body: request, token: homeManager.accessToken).status == 403)
            var same = request
            same.awayTeamId = home.id
            #expect(
                try await h.games.call(GamesAPI.createGame, body: same, token: commissioner.accessToken).problem?.errors?.map(\.field) == [
                    "awayTeamId"
                ])
        }
    }

    @Test("A pick-up game needs place and attributes, and bad input is a 422 naming each field; nothing is created")
    func pickupValidation() async throws {
        try await GamesHarness.with { h in
            let organizer = try await h.player()
            let bare = try await h.games.call(
                GamesAPI.createGame, body: CreateGameRequest(kind: .pickup, startsAt: GamesHarness.nextWeek), token: organizer.accessToken)
            #expect(bare.status == 422)
            #expect(Set(bare.problem?.errors?.map(\.field) ?? []) == ["location", "sport", "privacy", "ageGroup", "gender", "skill"])

            var bad = GamesHarness.pickupRequest(
                capacity: 0, startsAt: Date().addingTimeInterval(-3600), location: Location(lat: 95, lng: 200))
            let response = try await h.games.call(GamesAPI.createGame, body: bad, token: organizer.accessToken)
            #expect(response.status == 422)
            #expect(Set(response.problem?.errors?.map(\.field) ?? []) == ["capacity", "location.lat", "location.lng"])
            let past = try await h.games.call(
                GamesAPI.createGame, body: GamesHarness.pickupRequest(startsAt: Date().addingTimeInterval(-3600)),
                token: organizer.accessToken)
            #expect(past.problem?.errors?.map(\.field) == ["startsAt"])
            bad = GamesHarness.pickupRequest()
            bad.description = String(repeating: "x", count: 1001)
            #expect(
                try await h.games.call(GamesAPI.createGame, body: bad, token: organizer.accessToken).problem?.errors?.map(\.field) == [
                    "description"
                ])

            let unknownKind = try await h.games.call(
                GamesAPI.createGame, rawBody: Data(#"{"kind":"friendly","startsAt":"2031-01-01T10:00:00Z"}"#.utf8),
                token: organizer.accessToken,
                headers: ["Content-Type": "application/json"])
            #expect(unknownKind.status == 422 && unknownKind.problem?.errors?.first?.field == "kind")
            let badTime = try await h.games.call(
                GamesAPI.createGame, rawBody: Data(#"{"kind":"pickup","startsAt":"next tuesday"}"#.utf8), token: organizer.accessToken,
                headers: ["Content-Type": "application/json"])
            #expect(badTime.status == 422 && badTime.problem?.errors?.first?.field == "startsAt")
            #expect(try await h.games.call(GamesAPI.createGame, body: GamesHarness.pickupRequest()).status == 401)

            let mine = try await h.games.call(GamesAPI.myGames, query: Query.mineScope(.mine), token: organizer.accessToken).decode(
                Page<Game>.self)
            #expect(mine.items.isEmpty)

            let game = try await h.pickup(by: organizer, capacity: 10)
            #expect(game.myStatus == .going && game.goingCount == 1 && game.description == "Beach volleyball, bring water")
            #expect(try await h.games.call(GamesAPI.game, "not-a-uuid", token: organizer.accessToken).status == 404)
            #expect(try await h.games.call(GamesAPI.game, GameID(), token: organizer.accessToken).status == 404)
            #expect(
                try await h.games.call(GamesAPI.myGames, rawQuery: "scope=everyone", token: organizer.accessToken).problem?.errors?.first?
                    .field == "scope")
        }
    }

    @Test("The organiser changes and cancels a game; others cannot; a cancelled game takes no players", arguments: TestStore.all)
    func updateAndCancel(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let organizer = try await h.player(), player = try await h.player(), late = try await h.player()
            let game = try await h.pickup(by: organizer, capacity: 4)
            _ = try await h.join(game, as: player)

            let later = GamesHarness.nextWeek.addingTimeInterval(3600)
            let changed = try await expect(
                200,
                h.games.call(
                    GamesAPI.updateGame, game.id, body: UpdateGameRequest(startsAt: later, skill: .advanced, capacity: 6),
                    token: organizer.accessToken)
            ).decode(Game.self)
            #expect(changed.startsAt == later && changed.skill == .advanced && changed.capacity == 6 && changed.goingCount == 2)

            #expect(
                try await h.games.call(GamesAPI.updateGame, game.id, body: UpdateGameRequest(skill: .beginner), token: player.accessToken)
                    .status
                    == 403)
            #expect(try await h.games.call(GamesAPI.cancelGame, game.id, token: player.accessToken).status == 403)
            let shrink = try await h.games.call(
                GamesAPI.updateGame, game.id, body: UpdateGameRequest(capacity: 1), token: organizer.accessToken)
            #expect(shrink.status == 422 && shrink.problem?.errors?.map(\.field) == ["capacity"])
            let past = try await h.games.call(
                GamesAPI.updateGame, game.id, body: UpdateGameRequest(startsAt: Date().addingTimeInterval(-60)),
                token: organizer.accessToken)
            #expect(past.status == 422 && past.problem?.errors?.map(\.field) == ["startsAt"])

            #expect(try await h.games.call(GamesAPI.cancelGame, game.id, token: organizer.accessToken).status == 204)
            #expect(try await h.games.call(GamesAPI.cancelGame, game.id, token: organizer.accessToken).status == 204)
            let cancelled = try await h.read(game, as: player).decode(Game.self)
            #expect(cancelled.status == .cancelled && cancelled.goingCount == 2)
            let join = try await h.games.call(GamesAPI.joinGame, game.id, token: late.accessToken)
            #expect(join.status == 409 && join.problem?.code == "GAME_CANCELLED")
            #expect(
                try await h.games.call(
                    GamesAPI.updateGame, game.id, body: UpdateGameRequest(skill: .beginner), token: organizer.accessToken
                )
                .status == 409)
        }
    }
}
