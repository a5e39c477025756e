import Contracts
import Foundation
import ServiceKitTesting
import Testing

/// A private team short of players finds substitutes through search without showing who or where it is.
@Suite("Substitutes for a private game")
struct PrivateSubstitutesTests {
    @Test(
        "a private game asking for substitutes is found by sport, time and distance only; a player asks, the organiser approves, and the call is answered",
        arguments: StackTests.stores)
    func privateGameFindsSubstitutes(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let organiser = try await gateway.register(name: "Pia Private"), sub = try await gateway.register(name: "Sam Substitute")
            let place = Coordinates(lat: 58.3776, lng: 26.7290)
            let request = CreateGameRequest(
                kind: .pickup, startsAt: Date().addingTimeInterval(4 * 86_400).wholeSeconds,
                location: Location(lat: place.lat, lng: place.lng, address: "Secret gym, Tartu"), sport: .volleyball, privacy: .private,
                ageGroup: .adult, gender: .coed, skill: .any, capacity: 12, description: "Friends only")
            let quiet = try await gateway.value(GamesAPI.createGame, body: request, token: organiser.accessToken)
            let game = try await gateway.value(GamesAPI.createGame, body: request, token: organiser.accessToken)
            _ = try await gateway.value(
                GamesAPI.askForSubstitutes, game.id, body: SubstitutesRequest(needed: 2), token: organiser.accessToken)
            // Only these games: against a deployed stack, other runs' games lie near the same place.
            func found() async throws -> [Nearby<Game>] {
                try await gateway.value(
                    SearchAPI.games, query: Query.place(place) + Query.radiusKm(5) + SearchAPI.needsPlayers(true) + Query.limit(100),
                    token: sub.accessToken
                ).items.filter { [game.id, quiet.id].contains($0.item.id) }
            }
            #expect(try await eventually { try await found().map(\.item.id) == [game.id] })
            let hit = try #require(try await found().first)
            #expect(hit.distanceMeters == 0 && hit.item.subsNeeded == 2 && hit.item.sport == .volleyball)
            #expect(hit.item.location == nil && hit.item.description == nil && hit.item.goingCount == 0)

            let asked = try await gateway.value(GamesAPI.joinGame, game.id, token: sub.accessToken)
            #expect(asked.status == .pending && asked.substitute)
            #expect(try await gateway.call(GamesAPI.roster, game.id, token: sub.accessToken).status == 404)
            let approved = try await gateway.value(GamesAPI.approveGameRequest, game.id, sub.user.id, token: organiser.accessToken)
            #expect(approved.status == .going && approved.substitute && approved.subsNeeded == 1)
            let seen = try await gateway.value(GamesAPI.game, game.id, token: sub.accessToken)
            #expect(seen.location?.address == "Secret gym, Tartu" && seen.description == "Friends only")
            #expect(try await eventually { try await found().first?.item.subsNeeded == 1 })
        }
    }
}
