import Contracts
import Foundation
import ServiceKitTesting
import Testing

/// A ground's page lists the games played there, and a game planned at a ground takes its place.
@Suite("Games at a venue")
struct GamesAtVenuesTests {
    @Test(
        "a game planned at a venue takes its place and only sport; the venue lists the games whose place the viewer may see, and a protected game's venue is hidden as its place is",
        arguments: StackTests.stores)
    func gamesAtAVenue(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let admin = try await StackTests.administrator(gateway)
            let organiser = try await gateway.register(name: "Vera Organiser"), stranger = try await gateway.register(name: "Sam Stranger")
            let nets = CreateVenueRequest(
                name: "Akoonah Nets", location: Location(lat: -38.0317, lng: 145.3461, address: "Princes Hwy, Berwick VIC"),
                sports: [.cricket], description: "Four turf nets, lights until 21:00", postcode: "3806")
            let venue = try await gateway.value(CatalogAPI.createVenue, body: nets, token: admin.accessToken)
            #expect(venue.description == nets.description && venue.postcode == "3806")
            #expect(try await gateway.value(CatalogAPI.venue, venue.id) == venue)
            var badPostcode = nets
            badPostcode.postcode = "38/06"
            let refused = try await gateway.call(CatalogAPI.createVenue, body: badPostcode, token: admin.accessToken)
            #expect(refused.status == 422 && refused.problem?.errors?.map(\.field) == ["postcode"])
            let fields = try await gateway.value(
                CatalogAPI.createVenue,
                body: CreateVenueRequest(
                    name: "Two Sports Fields", location: Location(lat: -38.10, lng: 145.31), sports: [.soccer, .cricket]),
                token: admin.accessToken)

            func game(at venue: VenueID, sport: Sport? = nil, privacy: Privacy = .public, by player: Session = organiser) async throws
                -> (status: Int, game: Game?, problem: Problem?)
            {
                let request = CreateGameRequest(
                    kind: .pickup, startsAt: Date().addingTimeInterval(2 * 86_400), sport: sport, privacy: privacy, ageGroup: .adult,
                    gender: .coed, skill: .any, capacity: 12, venueId: venue)
                let response = try await gateway.call(GamesAPI.createGame, body: request, token: player.accessToken)
                return (response.status, response.status == 201 ? try response.decode(Game.self) : nil, response.problem)
            }
            let open = try #require(try await game(at: venue.id).game)
            #expect(open.venueId == venue.id && open.sport == .cricket && open.location == venue.location)
            // A venue of two sports needs the game's; an unknown venue is named.
            #expect(try await game(at: fields.id).problem?.errors?.map(\.field) == ["sport"])
            #expect(try await game(at: fields.id, sport: .soccer).status == 201)
            #expect(try await game(at: VenueID()).problem?.errors?.map(\.field) == ["venueId"])

            let closed = try #require(try await game(at: venue.id, privacy: .protected).game)
            let secret = try #require(try await game(at: venue.id, privacy: .private).game)
            let seen = try await gateway.value(GamesAPI.game, closed.id, token: stranger.accessToken)
            #expect(seen.venueId == nil && seen.location == nil)
            func listed(by player: Session, _ when: VenueGamesWindow = .upcoming, limit: Int = 20) async throws -> [GameID] {
                var ids: [GameID] = [], cursor: String?
                repeat {
                    let page = try await gateway.value(
                        GamesAPI.venueGames, venue.id,
                        query: GamesAPI.venueGamesWhen(when) + Query.limit(limit) + (cursor.map { Query.cursor($0) } ?? QueryItems()),
                        token: player.accessToken)
                    ids += page.items.map(\.id)
                    cursor = page.nextCursor
                } while cursor != nil
                return ids
            }
            #expect(try await listed(by: stranger) == [open.id])
            #expect(try await listed(by: organiser) == [open.id, closed.id, secret.id])
            // Paged one at a time, past the games the stranger may not see.
            #expect(try await listed(by: organiser, limit: 1) == [open.id, closed.id, secret.id])
            #expect(try await listed(by: stranger, limit: 1) == [open.id])
            #expect(try await listed(by: organiser, .past).isEmpty)
            #expect(try await gateway.call(GamesAPI.venueGames, VenueID(), token: stranger.accessToken).status == 404)

            // Search shows the protected game without its place or venue (only this test's games: against a
            // deployed stack, other runs' games are near the same place).
            let found = try await poll {
                try await gateway.value(
                    SearchAPI.games, query: Query.place(venue.location.coordinates) + Query.radiusKm(2) + Query.limit(100),
                    token: stranger.accessToken
                ).items.filter { [open.id, closed.id].contains($0.item.id) }
            } until: {
                $0.count == 2
            }
            #expect(found.first { $0.item.id == open.id }?.item.venueId == venue.id)
            #expect(found.first { $0.item.id == closed.id }.map { $0.item.venueId == nil && $0.item.location == nil } == true)
        }
    }
}
