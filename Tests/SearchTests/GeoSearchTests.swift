import Contracts
import Foundation
import NIOHTTP1
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import Testing

@testable import SearchService

@Suite("Searching near a place")
struct GeoSearchTests {
    /// A repeatable generator, so a failure can be replayed.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    @Test("Games within the radius are exactly those a brute-force haversine finds, nearest first", arguments: TestStore.all)
    func matchesBruteForce(store: TestStore) async throws {
        try await SearchHarness.with(store: store) { h in
            var random = Seeded(state: 42)
            let center = Coordinates(lat: 59.437, lng: 24.7536)
            // 400 games up to ~700 km away, some private, cancelled or already past.
            var games: [Game] = []
            for index in 0..<400 {
                let point = Coordinates(
                    lat: center.lat + .random(in: -6...6, using: &random), lng: center.lng + .random(in: -12...12, using: &random))
                var game = SearchHarness.game(at: point, privacy: index % 10 == 0 ? .private : .public)
                if index % 17 == 0 { game.status = .cancelled }
                games.append(game)
            }
            try await h.deliver(games.map { try SearchHarness.gameEvent($0) })
            let searcher = try await h.player()
            for _ in 0..<12 {
                let here = Coordinates(
                    lat: center.lat + .random(in: -3...3, using: &random), lng: center.lng + .random(in: -6...6, using: &random))
                let radiusKm = Double.random(in: 5...400, using: &random)
                let expected = games.filter { $0.privacy != .private && $0.status == .scheduled }
                    .map { ($0.id, Geodesy.distance(from: here, to: $0.location!.coordinates)) }
                    .filter { $0.1 <= radiusKm * 1000 }
                    .sorted { $0.1 < $1.1 }
                let found = try await h.search.value(
                    SearchAPI.games,
                    query: Query.place(Coordinates(lat: here.lat, lng: here.lng)) + Query.radiusKm(radiusKm) + Query.limit(100),
                    token: searcher.accessToken)
                #expect(found.items.map(\.item.id) == Array(expected.prefix(100).map(\.0)))
                #expect(zip(found.items, expected).allSatisfy { abs(Double($0.distanceMeters) - $1.1) <= 0.5 })
            }
        }
    }

    @Test(
        "Paging nearest first in a dense city: every page continues where the last stopped, games at one spot included, none twice or missed",
        arguments: TestStore.all)
    func pagesInACity(store: TestStore) async throws {
        try await SearchHarness.with(store: store) { h in
            var random = Seeded(state: 7)
            let center = Coordinates(lat: 59.437, lng: 24.7536)
            // A dense centre (a dozen games on one pitch, many within a few hundred metres) and a
            // thin spread out to 60 km.
            var games = (0..<12).map { _ in SearchHarness.game(at: Coordinates(lat: 59.44, lng: 24.76)) }
            for index in 0..<150 {
                let spread = index < 100 ? 0.01 : 0.5
                games.append(
                    SearchHarness.game(
                        at: Coordinates(
                            lat: center.lat + .random(in: -spread...spread, using: &random),
                            lng: center.lng + .random(in: -2 * spread...2 * spread, using: &random))))
            }
            try await h.deliver(games.map { try SearchHarness.gameEvent($0) })
            let searcher = try await h.player()
            let expected = games.map { ($0.id, Int(Geodesy.distance(from: center, to: $0.location!.coordinates).rounded())) }
                .filter { $0.1 <= 50_000 }.sorted { $0.1 < $1.1 }
            var seen: [(GameID, Int)] = []
            var cursor: String?
            repeat {
                let query = Query.place(center) + Query.radiusKm(50) + Query.limit(7) + Query.cursor(cursor)
                let page = try await h.search.value(SearchAPI.games, query: query, token: searcher.accessToken)
                #expect(page.items.count <= 7)
                seen += page.items.map { ($0.item.id, $0.distanceMeters) }
                cursor = page.nextCursor
            } while cursor != nil && seen.count <= games.count
            #expect(seen.map(\.1) == expected.map(\.1))
            #expect(Set(seen.map(\.0)) == Set(expected.map(\.0)) && Set(seen.map(\.0)).count == seen.count)
            let refused = try await h.search.call(SearchAPI.games, rawQuery: "lat=59&lng=24&cursor=bm9wZQ", token: searcher.accessToken)
            #expect(refused.status == 422)
        }
    }

    @Test("the rings grow from the cursor by what the last one held, up to the area; a cursor goes on after the ties it showed")
    func ringsAndCursors() throws {
        #expect(NearestRings.next(after: nil, from: 0, limit: 50_000) == 500)
        // Nothing found: the band grows eightfold; few: by the square root of what is missing; many: it doubles.
        #expect(NearestRings.next(after: 500, from: 0, limit: 50_000) == 4_000)
        #expect(abs(NearestRings.next(after: 500, from: 0, found: 1, wanted: 21, limit: 50_000) - 500 * 21.0.squareRoot() * 1.25) < 1e-6)
        #expect(NearestRings.next(after: 500, from: 0, found: 20, wanted: 21, limit: 50_000) == 1_000)
        #expect(NearestRings.next(after: nil, from: 10_000, limit: 50_000) == 10_500)
        #expect(NearestRings.next(after: 10_500, from: 10_000, found: 10, wanted: 21, limit: 50_000) == 11_000)
        #expect(NearestRings.next(after: 40_000, from: 0, limit: 50_000) == 50_000)
        let cursor = NearestCursor(meters: 120, shownAtMeters: 2)
        #expect(cursor.after([120, 120]) == NearestCursor(meters: 120, shownAtMeters: 4))
        #expect(cursor.after([120, 130, 130]) == NearestCursor(meters: 130, shownAtMeters: 2))
        #expect(try NearestCursor(PageRequest(cursor: "130:2")) == NearestCursor(meters: 130, shownAtMeters: 2))
        #expect(throws: CommonError.self) { try NearestCursor(PageRequest(cursor: "12")) }
    }

    @Test("Filters narrow by sport, skill, age group, gender, time window and need of players", arguments: TestStore.all)
    func filters(store: TestStore) async throws {
        try await SearchHarness.with(store: store) { h in
            let here = Coordinates(lat: -38.069, lng: 145.303)
            func near(_ metres: Double) -> Coordinates { Coordinates(lat: here.lat + metres / 111_320, lng: here.lng) }
            let volley = SearchHarness.game(at: near(500))
            let soccer = SearchHarness.game(at: near(600), sport: .soccer)
            let beginners = SearchHarness.game(at: near(700), skill: .beginner)
            let anyone = SearchHarness.game(at: near(800), skill: .any, ageGroup: .any, gender: .any)
            let women = SearchHarness.game(at: near(900), gender: .female)
            let youth = SearchHarness.game(at: near(1000), ageGroup: .youth)
            let nextMonth = SearchHarness.game(at: near(1100), startsIn: 24 * 30)
            let needsSubs = SearchHarness.game(at: near(1200), subsNeeded: 2)
            let past = SearchHarness.game(at: near(1300), startsIn: -2)
            let all = [volley, soccer, beginners, anyone, women, youth, nextMonth, needsSubs, past]
            try await h.deliver(all.map { try SearchHarness.gameEvent($0) })
            let token = try await h.player().accessToken
            func ids(_ filters: QueryItems = QueryItems()) async throws -> [GameID] {
                try await h.search.value(SearchAPI.games, query: Query.place(here) + Query.radiusKm(5) + filters, token: token)
                    .items.map(\.item.id)
            }
            #expect(try await ids() == [volley, soccer, beginners, anyone, women, youth, nextMonth, needsSubs].map(\.id))
            #expect(try await ids(Query.sport(.soccer)) == [soccer.id])
            #expect(try await ids(Query.sport(.volleyball) + SearchAPI.skill(.beginner)) == [beginners.id, anyone.id])
            #expect(try await ids(Query.sport(.volleyball) + SearchAPI.ageGroup(.youth)) == [anyone.id, youth.id])
            #expect(
                try await ids(
                    Query.sport(.volleyball) + SearchAPI.gender(.male) + SearchAPI.ageGroup(.adult) + SearchAPI.skill(.intermediate)) == [
                        volley.id, anyone.id, nextMonth.id, needsSubs.id,
                    ])
            let weekAhead = Date().addingTimeInterval(7 * 24 * 3600)
            #expect(
                try await ids(Query.sport(.volleyball) + SearchAPI.gender(.female) + SearchAPI.to(weekAhead)) == [
                    volley.id, beginners.id, anyone.id, women.id, youth.id, needsSubs.id,
                ])
            #expect(try await ids(SearchAPI.needsPlayers(true)) == [needsSubs.id])
            #expect(try await ids(SearchAPI.needsPlayers(false)).count == 7)
        }
    }

    @Test("Private games never appear; protected ones appear without their exact location", arguments: TestStore.all)
    func privacy(store: TestStore) async throws {
        try await SearchHarness.with(store: store) { h in
            let here = Coordinates(lat: 58.38, lng: 26.72)
            let open = SearchHarness.game(at: Coordinates(lat: 58.381, lng: 26.72))
            let protected = SearchHarness.game(at: Coordinates(lat: 58.382, lng: 26.72), privacy: .protected)
            let hidden = SearchHarness.game(at: Coordinates(lat: 58.383, lng: 26.72), privacy: .private)
            try await h.deliver([open, protected, hidden].map { try SearchHarness.gameEvent($0) })
            let found = try await h.search.value(
                SearchAPI.games, query: Query.place(Coordinates(lat: here.lat, lng: here.lng)) + Query.radiusKm(10),
                token: try await h.player().accessToken)
            #expect(found.items.map(\.item.id) == [open.id, protected.id])
            #expect(found.items[0].item.location != nil && found.items[1].item.location == nil)
            #expect(found.items[1].distanceMeters > 0)
        }
    }

    @Test("Results page nearest first, then soonest; a redelivered event changes nothing", arguments: TestStore.all)
    func pagingAndReplay(store: TestStore) async throws {
        try await SearchHarness.with(store: store) { h in
            let spot = Coordinates(lat: 40.0, lng: -3.7)
            // Three games at the same spot: the soonest first.
            let games = [72.0, 24.0, 48.0].map { SearchHarness.game(at: spot, startsIn: $0) }
            let farther = SearchHarness.game(at: Coordinates(lat: 40.01, lng: -3.7))
            let events = try (games + [farther]).map { try SearchHarness.gameEvent($0) }
            try await h.deliver(events)
            try await h.deliver(events)
            let token = try await h.player().accessToken
            let first = try await h.search.value(
                SearchAPI.games, query: Query.place(Coordinates(lat: 40, lng: -3.7)) + Query.radiusKm(5) + Query.limit(2), token: token)
            let cursor = try #require(first.nextCursor)
            let second = try await h.search.value(
                SearchAPI.games,
                query: Query.place(Coordinates(lat: 40, lng: -3.7)) + Query.radiusKm(5) + Query.limit(2) + Query.cursor(cursor),
                token: token)
            #expect((first.items + second.items).map(\.item.id) == [games[1].id, games[2].id, games[0].id, farther.id])
            #expect(second.nextCursor == nil)

            // Cancelling takes a game out; a change moves it.
            var cancelled = games[1]
            cancelled.status = .cancelled
            var moved = games[2]
            moved.location = Location(lat: 40.02, lng: -3.7)
            try await h.deliver([
                try SearchHarness.gameEvent(cancelled, type: GameEvent.cancelled),
                try SearchHarness.gameEvent(moved, type: GameEvent.updated),
            ])
            let after = try await h.search.value(
                SearchAPI.games, query: Query.place(Coordinates(lat: 40, lng: -3.7)) + Query.radiusKm(5), token: token)
            #expect(after.items.map(\.item.id) == [games[0].id, farther.id, moved.id])

            // A large batch (decoded in slices) that repeats an old event applies only its new
            // events, in order: the old position of the moved game does not come back.
            var movedAgain = moved
            movedAgain.location = Location(lat: 40.03, lng: -3.7)
            let elsewhere = try (0..<300).map { _ in try SearchHarness.gameEvent(SearchHarness.game(at: Coordinates(lat: 10, lng: 10))) }
            try await h.deliver([events[2]] + elsewhere + [try SearchHarness.gameEvent(movedAgain, type: GameEvent.updated)])
            let last = try await h.search.value(
                SearchAPI.games, query: Query.place(Coordinates(lat: 40, lng: -3.7)) + Query.radiusKm(5), token: token)
            #expect(last.items.map(\.item.id) == [games[0].id, farther.id, moved.id])
            #expect(last.items.last?.item.location?.lat == 40.03)
            let far = try await h.search.value(
                SearchAPI.games, query: Query.place(Coordinates(lat: 10, lng: 10)) + Query.radiusKm(1) + Query.limit(100), token: token)
            #expect(far.items.count == 100 && far.nextCursor != nil)
        }
    }

    /// PostgreSQL fails a float operation that underflows to zero: `ll_to_earth` did on 5e-324°, and a
    /// game there stopped search taking any later game (`IndexedPosition`).
    @Test("A game at 5e-324° is found like any other, and does not hold back the games after it", arguments: TestStore.all)
    func tinyCoordinates(store: TestStore) async throws {
        try await SearchHarness.with(store: store) { h in
            let organizer = try await h.player()
            func create(_ location: Location) async throws -> Game {
                let request = CreateGameRequest(
                    kind: .pickup, startsAt: Date().addingTimeInterval(3 * 24 * 3600).wholeSeconds, location: location, sport: .soccer,
                    privacy: .public, ageGroup: .adult, gender: .coed, skill: .any, capacity: 10)
                return try await expect(201, h.games.call(GamesAPI.createGame, body: request, token: organizer.accessToken)).decode(
                    Game.self)
            }
            let tiny = try await create(Location(lat: 5e-324, lng: 24.75))
            let tinier = try await create(Location(lat: 0.0005, lng: -5e-324))
            let after = try await create(Location(lat: 0.001, lng: 24.75))
            func found(_ query: String) async throws -> [Nearby<Game>] {
                try await h.search.value(SearchAPI.games, rawQuery: query, token: organizer.accessToken).items
            }
            let near = try await poll {
                try await found("lat=5e-324&lng=24.75&radiusKm=5")
            } until: {
                $0.count == 2
            }
            #expect(near.map(\.item.id) == [tiny.id, after.id])
            #expect(near.first?.item.location?.lat == 5e-324 && near.first?.distanceMeters == 0)
            #expect(try await found("lat=0&lng=0&radiusKm=1").map(\.item.id) == [tinier.id])
            // A radius of 5e-324 km holds only what is exactly at the centre.
            #expect(try await found("lat=5e-324&lng=24.75&radiusKm=5e-324").map(\.item.id) == [tiny.id])
            #expect(try await found("lat=-90&lng=-180&radiusKm=5e-324").isEmpty)
        }
    }

    @Test("A delivery that is not JSON, or whose event lacks a field, is refused whole and indexes nothing")
    func malformedDeliveries() async throws {
        try await SearchHarness.with { h in
            let spot = Coordinates(lat: 52.52, lng: 13.405)
            let event = try SearchHarness.gameEvent(SearchHarness.game(at: spot))
            let whole = try HuddleJSON.decoder.decode(JSONValue.self, from: HuddleJSON.encoder.encode(event))
            guard case .object(var envelope) = whole else {
                Issue.record("an event is a JSON object")
                return
            }
            envelope["type"] = nil
            let json = ["Content-Type": "application/json"]
            let credited = TestClient(baseURL: h.search.baseURL, internalCallers: TestStack.internalCallers)
            let notJSON = try await credited.call(EventsAPI.deliver(to: .search), rawBody: Data("{\"events\": [".utf8), headers: json)
            #expect(notJSON.status == 400 && notJSON.problem?.code == "MALFORMED_BODY")
            let lacking = try await credited.call(
                EventsAPI.deliver(to: .search),
                rawBody: try HuddleJSON.encoder.encode(JSONValue.object(["events": .array([whole, .object(envelope)])])), headers: json)
            #expect(lacking.status == 422 && lacking.problem?.errors?.map(\.field) == ["events[1].type"])

            let token = try await h.player().accessToken
            let found = try await h.search.value(
                SearchAPI.games, query: Query.place(Coordinates(lat: spot.lat, lng: spot.lng)) + Query.radiusKm(5), token: token)
            #expect(found.items.isEmpty)
            try await h.deliver([event])
            let indexed = try await h.search.value(
                SearchAPI.games, query: Query.place(Coordinates(lat: spot.lat, lng: spot.lng)) + Query.radiusKm(5), token: token)
            #expect(indexed.items.count == 1)
        }
    }

    @Test("Bad parameters are a 422 naming each one")
    func validation() async throws {
        try await SearchHarness.with { h in
            let token = try await h.player().accessToken
            func fields(_ query: String?) async throws -> [String] {
                try await h.search.call(SearchAPI.games, rawQuery: query, token: token).problem?.errors?.map(\.field) ?? []
            }
            // Neither a point nor a postcode: the point is asked for first.
            #expect(try await fields(nil) == ["lat"])
            #expect(try await fields("lat=1") == ["lng"])
            #expect(try await fields("lat=91&lng=181") == ["lat", "lng"])
            #expect(try await fields("lat=1&lng=1&radiusKm=0") == ["radiusKm"])
            #expect(try await fields("lat=1&lng=1&radiusKm=501") == ["radiusKm"])
            #expect(try await fields("lat=north&lng=1") == ["lat"])
            #expect(try await fields("lat=1&lng=1&sport=quidditch") == ["sport"])
            #expect(try await fields("lat=1&lng=1&gender=robot") == ["gender"])
            #expect(try await fields("lat=1&lng=1&needsPlayers=maybe") == ["needsPlayers"])
            #expect(try await fields("lat=1&lng=1&from=tomorrow") == ["from"])
            #expect(try await h.search.call(SearchAPI.games, query: Query.place(Coordinates(lat: 1, lng: 1))).status == 401)
            #expect(
                try await h.search.call(SearchAPI.venues, rawQuery: "lat=1&lng=1&limit=0", token: token).problem?.errors?.map(\.field) == [
                    "limit"
                ])
        }
    }
}
