import Contracts
import Foundation
import HuddleEffects
import Logging
import NIOHTTP1
import ServiceClients

/// Demo games, created through the games API: on a start that finds none coming up, Chloe's team
/// game in Tallinn that needs substitutes, Bruno's open pick-up at Casey Race, and a protected
/// pick-up in Tallinn with a request waiting for Bruno; on the first start, a finished disc golf
/// round at Rakke, so Dmitri and Bruno have records.
enum DemoGames {
    /// Whether everything was seeded (or was there already).
    static func seed(catalogURL: String, gamesURL: String, sessions: [String: Session], logger: Logger) async -> Bool {
        guard let chloe = sessions[DemoData.chloe.email], let bruno = sessions[DemoData.bruno.email],
            let dmitri = sessions[DemoData.dmitri.email]
        else { return false }
        let catalog = APIClient(baseURL: catalogURL), games = APIClient(baseURL: gamesURL)
        var complete = true
        do {
            try await seedGames(
                catalog: catalog, games: games, chloe: chloe.accessToken, bruno: bruno.accessToken, dmitri: dmitri.accessToken)
        } catch {
            logger.warning("demo games incomplete: \(error)")
            complete = false
        }
        do {
            try await seedRound(catalog: catalog, games: games, dmitri: dmitri, bruno: bruno)
        } catch {
            logger.warning("demo round incomplete: \(error)")
            complete = false
        }
        return complete
    }

    private static func seedGames(catalog: APIClient, games: APIClient, chloe: String, bruno: String, dmitri: String) async throws {
        let upcoming = try await games.value(GamesAPI.myGames, query: Query.mineScope(.mine) + Query.limit(1), token: bruno)
        guard upcoming.items.isEmpty else { return }
        let teams = try await catalog.value(CatalogAPI.teams, query: CatalogAPI.teamMember(.me), token: chloe)
        // Whole hours, a few days out, so the demo always has something coming up.
        let today = Date(timeIntervalSince1970: (Effects.system.now().timeIntervalSince1970 / 3600).rounded(.down) * 3600)
        func day(_ days: Double, hour: Double) -> Date { today.addingTimeInterval(days * 86_400 + hour * 3600) }

        if let spikers = teams.items.first(where: { $0.name == "Kalev Spikers" }) {
            let request = CreateGameRequest(
                kind: .team, teamId: spikers.id, startsAt: day(5, hour: 2), timeZone: "Europe/Tallinn", capacity: 12,
                description: "Weekly training game", repeat: GameRepeat(count: 4))
            let game = try await games.value(GamesAPI.createGame, body: request, token: chloe)
            _ = try await games.call(GamesAPI.setStatus, game.id, body: SetRosterStatusRequest(status: .going), token: chloe)
            _ = try await games.call(GamesAPI.setStatus, game.id, body: SetRosterStatusRequest(status: .going), token: dmitri)
            _ = try await games.call(GamesAPI.askForSubstitutes, game.id, body: SubstitutesRequest(needed: 2), token: chloe)
        }
        // A private team short of a player: search shows strangers its sport, time and call, nothing more.
        if let hoopers = teams.items.first(where: { $0.name == "Tartu Hoopers" }) {
            let game = try await games.value(
                GamesAPI.createGame,
                body: CreateGameRequest(
                    kind: .team, teamId: hoopers.id, startsAt: day(4, hour: 16), timeZone: "Europe/Tallinn", capacity: 10),
                token: chloe)
            _ = try await games.call(GamesAPI.askForSubstitutes, game.id, body: SubstitutesRequest(needed: 1), token: chloe)
        }
        // At the Casey Race centre, so the ground's page lists it.
        let grounds = try await catalog.value(CatalogAPI.venues, query: Query.limit(100))
        let caseyRace = grounds.items.first { $0.name.hasPrefix("Casey Race") }
        let casey = CreateGameRequest(
            kind: .pickup, startsAt: day(3, hour: 7), timeZone: "Australia/Melbourne",
            location: caseyRace == nil ? Location(lat: -38.1066, lng: 145.2815, address: "Casey Race, Cranbourne East VIC") : nil,
            sport: .volleyball, privacy: .public, ageGroup: .adult, gender: .coed, skill: .beginner, capacity: 8,
            description: "Social volleyball, all levels welcome", alreadyGoing: 4, venueId: caseyRace?.id)
        _ = try await games.value(GamesAPI.createGame, body: casey, token: bruno)
        let kadriorg = CreateGameRequest(
            kind: .pickup, startsAt: day(2, hour: 4), timeZone: "Europe/Tallinn",
            location: Location(lat: 59.4381, lng: 24.7924, address: "Kadriorg stadium, Tallinn"),
            sport: .soccer, privacy: .protected, ageGroup: .adult, gender: .coed, skill: .intermediate, capacity: 14)
        let protected = try await games.value(GamesAPI.createGame, body: kadriorg, token: bruno)
        _ = try await DemoPurchases.afterUnlock { try await games.value(GamesAPI.joinGame, protected.id, token: chloe) }
    }

    /// Dmitri, Bruno and a guest play Rakke's nine holes; Dmitri keeps the card and finishes it. Then
    /// a round on a course off the list, under way.
    private static func seedRound(catalog: APIClient, games: APIClient, dmitri: Session, bruno: Session) async throws {
        let rounds = try await games.value(GamesAPI.myRounds, query: Query.mineScope(.mine) + Query.limit(1), token: dmitri.accessToken)
        guard rounds.items.isEmpty else { return }
        let courses = try await catalog.value(CatalogAPI.courses, query: Query.limit(100))
        guard let rakke = courses.items.first(where: { $0.name == "Rakke DiscGolfPark" }) else { return }
        let start = StartRoundRequest(courseId: rakke.id, players: [.init(userId: bruno.user.id), .init(guestName: "Maris")])
        let card = try await games.value(GamesAPI.startRound, body: start, token: dmitri.accessToken)
        let strokes = [[3, 2, 3, 4, 3, 3, 2, 3, 3], [4, 3, 3, 3, 5, 3, 4, 3, 3], [5, 4, 3, 4, 4, 3, 5, 4, 3]]
        for (player, line) in zip(card.players, strokes) {
            for (index, value) in line.enumerated() {
                let update = ScoreUpdate(playerId: player.playerId, hole: index + 1, strokes: value)
                _ = try await games.call(GamesAPI.score, card.id, body: update, token: dmitri.accessToken)
            }
        }
        _ = try await games.value(GamesAPI.finishRound, card.id, token: dmitri.accessToken)
        // Bruno practises on a field no course list has; Dmitri joins him after the first hole.
        let field = UnlistedCourse(name: "Pirita beach field", holes: (1...6).map { ScorecardHole(number: $0, par: 3) })
        let practice = try await games.value(GamesAPI.startRound, body: StartRoundRequest(course: field), token: bruno.accessToken)
        let first = ScoreUpdate(playerId: practice.players[0].playerId, hole: 1, strokes: 3)
        _ = try await games.value(GamesAPI.score, practice.id, body: first, token: bruno.accessToken)
        _ = try await games.value(
            GamesAPI.addRoundPlayer, practice.id, body: RoundPlayerRequest(userId: dmitri.user.id), token: bruno.accessToken)
    }
}
