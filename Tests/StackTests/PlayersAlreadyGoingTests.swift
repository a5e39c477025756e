import Contracts
import Foundation
import ServiceKitTesting
import Testing

/// An organiser who already has players without accounts says so, and search tells open games from full ones.
@Suite("Players already lined up")
struct PlayersAlreadyGoingTests {
    @Test(
        "a pick-up game counts the organiser's players without accounts: they take slots, a full game leaves openSlots=true, and fewer of them seat the waiting list",
        arguments: StackTests.stores)
    func alreadyGoing(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let organiser = try await gateway.register(name: "Oona Organiser"), ann = try await gateway.register(name: "Ann Player")
            let ben = try await gateway.register(name: "Ben Player")
            let place = Coordinates(lat: -38.0312, lng: 145.3421)
            func pickup(capacity: Int, alreadyGoing: Int?) -> CreateGameRequest {
                CreateGameRequest(
                    kind: .pickup, startsAt: Date().addingTimeInterval(3 * 86_400), location: Location(lat: place.lat, lng: place.lng),
                    sport: .cricket, privacy: .public, ageGroup: .adult, gender: .coed, skill: .any, capacity: capacity,
                    alreadyGoing: alreadyGoing)
            }
            // The organiser keeps a slot of their own; only a pick-up game counts players without accounts.
            let crowded = try await gateway.call(
                GamesAPI.createGame, body: pickup(capacity: 3, alreadyGoing: 3), token: organiser.accessToken)
            #expect(crowded.status == 422 && crowded.problem?.errors?.map(\.field) == ["alreadyGoing"])
            let team = try await StackTests.volleyballTeam("Lined Up", by: organiser, through: gateway)
            let teamGame = try await gateway.call(
                GamesAPI.createGame,
                body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: Date().addingTimeInterval(86_400), alreadyGoing: 2),
                token: organiser.accessToken)
            #expect(teamGame.status == 422 && teamGame.problem?.errors?.map(\.field) == ["alreadyGoing"])

            let game = try await gateway.value(
                GamesAPI.createGame, body: pickup(capacity: 4, alreadyGoing: 2), token: organiser.accessToken)
            #expect(game.alreadyGoing == 2 && game.goingCount == 3)
            // Only this game: against a deployed stack, other runs' games are near the same place.
            func found(openSlots: Bool) async throws -> [GameID] {
                try await gateway.value(
                    SearchAPI.games, query: Query.place(place) + Query.radiusKm(5) + SearchAPI.openSlots(openSlots) + Query.limit(100),
                    token: ann.accessToken
                ).items.map(\.item.id).filter { $0 == game.id }
            }
            #expect(try await eventually { try await found(openSlots: true) == [game.id] })
            #expect(try await gateway.value(GamesAPI.joinGame, game.id, token: ann.accessToken).status == .going)
            // Full: the organiser, Ann and two without accounts.
            #expect(try await eventually { try await found(openSlots: false) == [game.id] })
            #expect(try await found(openSlots: true).isEmpty)
            #expect(try await gateway.value(GamesAPI.joinGame, game.id, token: ben.accessToken).status == .waitlisted)
            let raised = try await gateway.call(
                GamesAPI.updateGame, game.id, body: UpdateGameRequest(alreadyGoing: 3), token: organiser.accessToken)
            #expect(raised.status == 422 && raised.problem?.errors?.map(\.field) == ["alreadyGoing"])
            #expect(
                try await gateway.call(GamesAPI.updateGame, game.id, body: UpdateGameRequest(alreadyGoing: 2), token: ann.accessToken)
                    .status
                    == 403)
            // One of them cannot come: Ben moves up from the waiting list.
            let fewer = try await gateway.value(
                GamesAPI.updateGame, game.id, body: UpdateGameRequest(alreadyGoing: 1), token: organiser.accessToken)
            #expect(fewer.alreadyGoing == 1 && fewer.goingCount == 4 && fewer.waitlistCount == 0)
            #expect(try await gateway.value(GamesAPI.game, game.id, token: ben.accessToken).myStatus == .going)
            let none = try await gateway.value(
                GamesAPI.updateGame, game.id, body: UpdateGameRequest(alreadyGoing: 0), token: organiser.accessToken)
            #expect(none.alreadyGoing == nil && none.goingCount == 3)
            #expect(try await eventually { try await found(openSlots: true) == [game.id] })
        }
    }
}
