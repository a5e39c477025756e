import Contracts
import Foundation
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import Testing

@Suite("Searching teams, places and players fed by events")
struct CatalogAndPlayerSearchTests {
    @Test("Players are found by name prefix and despite typos, best match first; a deleted one no more", arguments: TestStore.all)
    func players(store: TestStore) async throws {
        try await SearchHarness.with(store: store) { h in
            let bruno = try await h.player("Bruno Player")
            for name in ["Brunhilde Stone", "Ülle Õun", "Anna Tamm"] { _ = try await h.player(name) }
            let annika = try await h.player("Annika Kask")
            let token = bruno.accessToken
            func names(_ query: String) async throws -> [String] {
                try await h.search.value(SearchAPI.players, query: SearchAPI.playerText("\(query)"), token: token).items.map(\.name)
            }
            // Auth delivers its events in order: once the last one registered is found, all are.
            #expect(try await eventually { try await names("anika") == ["Annika Kask"] })
            #expect(try await names("ulle") == ["Ülle Õun"])
            #expect(try await names("bru") == ["Brunhilde Stone", "Bruno Player"])
            #expect(try await names("BRUNO").first == "Bruno Player")
            #expect(try await names("stone") == ["Brunhilde Stone"])
            #expect(try await names("zzzz").isEmpty)

            // A renamed player is found by the new name.
            _ = try await expect(
                200, h.stack.client(.auth).call(AuthAPI.updateMe, body: UpdateProfileRequest(name: "Bruno Backhand"), token: token))
            #expect(try await eventually { try await names("backhand") == ["Bruno Backhand"] })

            // A deleted account leaves player search.
            _ = try await expect(
                204,
                h.stack.client(.auth).call(
                    AuthAPI.deleteMe, body: DeleteAccountRequest(password: "correct horse battery"), token: annika.accessToken))
            #expect(try await eventually { try await names("annika").isEmpty })
            #expect(try await h.search.call(SearchAPI.players, rawQuery: "q=", token: token).problem?.errors?.map(\.field) == ["q"])
            // Blank by Foundation's measure, not only ASCII spaces; a NUL never reaches the index.
            #expect(
                try await h.search.call(SearchAPI.players, rawQuery: "q=%0C%E3%80%80", token: token).problem?.errors?.map(\.field) == ["q"])
            #expect(try await h.search.call(SearchAPI.players, rawQuery: "q=br%00u", token: token).problem?.errors?.map(\.field) == ["q"])
        }
    }

    @Test("Teams, courses and venues come from catalog's events: nearest first, protected teams without location", arguments: TestStore.all)
    func catalogPlaces(store: TestStore) async throws {
        try await SearchHarness.with(store: store) { h in
            let manager = try await h.player(), joiner = try await h.player()
            let admin = try await h.stack.client(.auth).register(name: "Ada Admin", email: SearchHarness.adminEmail)
            func team(_ name: String, _ privacy: Privacy, _ lat: Double) async throws -> Team {
                let request = CreateTeamRequest(
                    name: name, sport: .volleyball, privacy: privacy, location: Location(lat: lat, lng: 24.75), ageGroup: .adult,
                    gender: .coed,
                    skill: .intermediate)
                return try await expect(201, h.catalog.call(CatalogAPI.createTeam, body: request, token: manager.accessToken)).decode(
                    Team.self)
            }
            let near = try await team("Near Spikers", .public, 59.44), protected = try await team("Closed Circle", .protected, 59.45)
            _ = try await team("Secret Six", .private, 59.441)
            _ = try await expect(200, h.catalog.call(CatalogAPI.joinTeam, near.id, token: joiner.accessToken))
            for (name, lat) in [("Pirita", 59.465), ("Far Park", 58.0)] {
                let holes = [
                    Hole(number: 1, par: 3, tee: Coordinates(lat: lat, lng: 24.8), basket: Coordinates(lat: lat + 0.0005, lng: 24.8))
                ]
                _ = try await expect(
                    201,
                    h.catalog.call(
                        CatalogAPI.createCourse,
                        body: CreateCourseRequest(name: name, location: Location(lat: lat, lng: 24.8), holes: holes),
                        token: admin.accessToken))
            }
            for index in 0..<7 {
                let venue = CreateVenueRequest(
                    name: "Ground \(index)", location: Location(lat: 59.4 + Double(index) * 0.01, lng: 24.75), sports: [.soccer])
                _ = try await expect(201, h.catalog.call(CatalogAPI.createVenue, body: venue, token: admin.accessToken))
            }
            let token = manager.accessToken
            let here = Query.place(Coordinates(lat: 59.437, lng: 24.75))
            #expect(
                try await eventually {
                    try await h.search.value(SearchAPI.teams, query: here + Query.radiusKm(10), token: token).items.first?
                        .item.memberCount == 2
                })
            let teams = try await h.search.value(SearchAPI.teams, query: here + Query.radiusKm(10), token: token).items
            #expect(teams.map(\.item.name) == ["Near Spikers", "Closed Circle"])
            #expect(teams[0].item.location != nil && teams[1].item.location == nil)
            #expect(
                try await h.search.value(SearchAPI.teams, query: here + Query.radiusKm(10) + Query.sport(.soccer), token: token).items
                    .isEmpty)

            #expect(
                try await eventually {
                    try await h.search.value(SearchAPI.courses, query: here + Query.radiusKm(300), token: token).items.count == 2
                })
            let courses = try await h.search.value(SearchAPI.courses, query: here + Query.radiusKm(300), token: token).items
            #expect(courses.map(\.item.name) == ["Pirita", "Far Park"] && courses[0].distanceMeters < courses[1].distanceMeters)
            #expect(
                try await eventually {
                    try await h.search.value(SearchAPI.venues, query: here + SearchAPI.venuesLimit(7), token: token).items.count == 7
                })
            let venues = try await h.search.value(SearchAPI.venues, query: here, token: token).items
            #expect(venues.map(\.item.name) == ["Ground 4", "Ground 3", "Ground 5", "Ground 2", "Ground 6"])
            // The radius every search takes: only the grounds within it.
            let within = try await h.search.value(
                SearchAPI.venues, query: here + Query.radiusKm(Double(venues[1].distanceMeters / 1000 + 1)), token: token)
            #expect(within.items.allSatisfy { $0.distanceMeters <= (venues[1].distanceMeters / 1000 + 1) * 1000 })
            #expect(within.items.count < 5 && within.items.map(\.item.name).prefix(2) == ["Ground 4", "Ground 3"])

            // A deleted team leaves the index.
            _ = try await expect(204, h.catalog.call(CatalogAPI.deleteTeam, near.id, token: manager.accessToken))
            #expect(
                try await eventually {
                    try await h.search.value(SearchAPI.teams, query: here + Query.radiusKm(10), token: token).items.map(
                        \.item.id) == [protected.id]
                })
        }
    }

    @Test(
        "A manager says the team is looking for players: it shows as recruiting, search finds it with recruiting=true, and a player cannot say it",
        arguments: TestStore.all)
    func recruitingTeams(store: TestStore) async throws {
        try await SearchHarness.with(store: store) { h in
            let manager = try await h.player(), player = try await h.player()
            var teams: [Team] = []
            for (name, lat) in [("Full House", 59.44), ("Open Door", 59.45)] {
                let request = CreateTeamRequest(
                    name: name, sport: .volleyball, privacy: .public, location: Location(lat: lat, lng: 24.75), ageGroup: .adult,
                    gender: .coed, skill: .intermediate)
                teams.append(
                    try await expect(201, h.catalog.call(CatalogAPI.createTeam, body: request, token: manager.accessToken)).decode(
                        Team.self))
            }
            #expect(teams.allSatisfy { $0.recruiting == nil })
            _ = try await expect(200, h.catalog.call(CatalogAPI.joinTeam, teams[1].id, token: player.accessToken))
            let refused = try await h.catalog.call(
                CatalogAPI.updateTeam, teams[1].id, body: UpdateTeamRequest(recruiting: true), token: player.accessToken)
            #expect(refused.status == 403)
            let open = try await expect(
                200,
                h.catalog.call(CatalogAPI.updateTeam, teams[1].id, body: UpdateTeamRequest(recruiting: true), token: manager.accessToken)
            ).decode(Team.self)
            #expect(open.recruiting == true)
            #expect(try await h.catalog.value(CatalogAPI.team, teams[1].id, token: player.accessToken).recruiting == true)

            let here = Query.place(Coordinates(lat: 59.437, lng: 24.75)) + Query.radiusKm(10)
            func found(recruiting: Bool?) async throws -> [String] {
                try await h.search.value(
                    SearchAPI.teams, query: here + SearchAPI.recruiting(recruiting), token: player.accessToken
                ).items.map(\.item.name)
            }
            #expect(try await eventually { try await found(recruiting: true) == ["Open Door"] })
            #expect(
                try await h.search.value(SearchAPI.teams, query: here, token: player.accessToken).items.first {
                    $0.item.name == "Open Door"
                }?.item.recruiting == true)
            #expect(try await found(recruiting: false) == ["Full House"])
            #expect(try await found(recruiting: nil) == ["Full House", "Open Door"])
            // Full again: it leaves the recruiting search, and the member count it gained stays.
            _ = try await expect(
                200,
                h.catalog.call(CatalogAPI.updateTeam, teams[1].id, body: UpdateTeamRequest(recruiting: false), token: manager.accessToken))
            #expect(try await eventually { try await found(recruiting: true).isEmpty })
            #expect(try await h.search.value(SearchAPI.teams, query: here, token: player.accessToken).items.last?.item.memberCount == 2)
            #expect(
                try await h.search.call(SearchAPI.teams, rawQuery: "lat=59.4&lng=24.7&recruiting=maybe", token: player.accessToken).problem?
                    .errors?.map(\.field) == ["recruiting"])
        }
    }
}

@Suite("Search catching up")
struct CatchUpTests {
    @Test("After search was unreachable while games changed, it converges with nothing lost", arguments: TestStore.all)
    func catchUp(store: TestStore) async throws {
        try await SearchHarness.with(store: store) { h in
            let searchURL = h.stack.url(.search)
            let search = TestClient(baseURL: searchURL)
            let organizer = try await h.player()
            // Deliveries to search fail from now on: nothing listens on port 1.
            h.stack.runner.directory.set(.search, url: "http://127.0.0.1:1")
            let when = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3 * 24 * 3600).rounded(.down))
            var created: [GameID] = []
            for index in 0..<5 {
                let request = CreateGameRequest(
                    kind: .pickup, startsAt: when, location: Location(lat: 52.52 + Double(index) * 0.001, lng: 13.405), sport: .basketball,
                    privacy: .public, ageGroup: .adult, gender: .coed, skill: .any, capacity: 10)
                created.append(
                    try await expect(201, h.games.call(GamesAPI.createGame, body: request, token: organizer.accessToken)).decode(Game.self)
                        .id)
            }
            _ = try await expect(204, h.games.call(GamesAPI.cancelGame, created[4], token: organizer.accessToken))
            _ = try await expect(
                200, h.games.call(GamesAPI.askForSubstitutes, created[0], body: SubstitutesRequest(needed: 3), token: organizer.accessToken)
            )
            try await Task.sleep(for: .milliseconds(300))
            let query = Query.place(Coordinates(lat: 52.52, lng: 13.405)) + Query.radiusKm(5)
            #expect(try await search.value(SearchAPI.games, query: query, token: organizer.accessToken).items.isEmpty)

            h.stack.runner.directory.set(.search, url: searchURL)
            let items = try await poll {
                try await search.value(SearchAPI.games, query: query, token: organizer.accessToken).items
            } until: {
                $0.count == 4 && $0.first?.item.subsNeeded == 3
            }
            #expect(items.map(\.item.id) == Array(created.prefix(4)))
            #expect(items.first?.item.subsNeeded == 3)
        }
    }
}

@Suite("Rebuilding the index")
struct ReindexTests {
    @Test("An index that lost everything is rebuilt from the owners' snapshots", arguments: TestStore.all)
    func rebuild(store: TestStore) async throws {
        // Nothing is delivered to search: as if its store had been lost.
        let silent = ["catalog.events.subscribers": "games", "games.events.subscribers": "", "auth.events.subscribers": ""]
        try await SearchHarness.with(store: store, config: silent) { h in
            let organizer = try await h.player("Rita Rebuild")
            let admin = try await h.stack.client(.auth).register(name: "Ada Admin", email: SearchHarness.adminEmail)
            let team = try await expect(
                201,
                h.catalog.call(
                    CatalogAPI.createTeam,
                    body: CreateTeamRequest(
                        name: "Kalev Spikers", sport: .volleyball, privacy: .public, location: Location(lat: 59.44, lng: 24.75),
                        ageGroup: .adult,
                        gender: .coed, skill: .any), token: organizer.accessToken)
            ).decode(Team.self)
            let holes = [Hole(number: 1, par: 3, tee: Coordinates(lat: 59.465, lng: 24.84), basket: Coordinates(lat: 59.4655, lng: 24.84))]
            _ = try await expect(
                201,
                h.catalog.call(
                    CatalogAPI.createCourse,
                    body: CreateCourseRequest(name: "Pirita", location: Location(lat: 59.465, lng: 24.84), holes: holes),
                    token: admin.accessToken))
            _ = try await expect(
                201,
                h.catalog.call(
                    CatalogAPI.createVenue,
                    body: CreateVenueRequest(name: "Kadriorg", location: Location(lat: 59.438, lng: 24.79), sports: [.soccer]),
                    token: admin.accessToken))
            let when = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 2 * 24 * 3600).rounded(.down))
            var games: [GameID] = []
            for (index, privacy) in [Privacy.public, .private, .protected].enumerated() {
                let request = CreateGameRequest(
                    kind: .pickup, startsAt: when.addingTimeInterval(Double(index) * 60),
                    location: Location(lat: 59.437 + Double(index) * 0.001, lng: 24.75),
                    sport: .volleyball, privacy: privacy, ageGroup: .adult, gender: .coed, skill: .any)
                games.append(
                    try await expect(201, h.games.call(GamesAPI.createGame, body: request, token: organizer.accessToken)).decode(Game.self)
                        .id)
            }
            let token = organizer.accessToken
            let near = Query.place(Coordinates(lat: 59.437, lng: 24.75)) + Query.radiusKm(20)
            #expect(try await h.search.value(SearchAPI.games, query: near, token: token).items.isEmpty)

            let rebuilt = try await h.search.call(SearchAPI.Internal.reindex)
            #expect(rebuilt.status == 200)
            #expect(try await h.search.withoutCredential.call(SearchAPI.Internal.reindex).status == 401)
            #expect(
                try await h.search.value(SearchAPI.games, query: near, token: token).items.map(\.item.id) == [
                    games[0], games[2],
                ])
            #expect(
                try await h.search.value(SearchAPI.teams, query: near, token: token).items.map(\.item.id) == [
                    team.id
                ])
            #expect(
                try await h.search.value(SearchAPI.courses, query: near, token: token).items.map(\.item.name) == [
                    "Pirita"
                ])
            #expect(
                try await h.search.value(SearchAPI.venues, query: Query.place(Coordinates(lat: 59.437, lng: 24.75)), token: token).items
                    .map(\.item.name)
                    == [
                        "Kadriorg"
                    ])
            #expect(
                try await h.search.value(SearchAPI.players, query: SearchAPI.playerText("rita"), token: token).items.map(\.name) == [
                    "Rita Rebuild"
                ])
            // Rebuilding again changes nothing.
            _ = try await h.search.call(SearchAPI.Internal.reindex)
            #expect(try await h.search.value(SearchAPI.games, query: near, token: token).items.count == 2)
        }
    }

    @Test("A reindex with an owner down answers 503 naming it and what was indexed before it")
    func reindexWithAnOwnerDown() async throws {
        let withoutCatalog = SearchHarness.builders.filter { $0.module != .catalog }
        let settings = ["games.events.subscribers": "search"]
        try await TestStack.with(withoutCatalog, config: settings, directory: [.catalog: "http://127.0.0.1:1"]) { stack in
            let organizer = try await stack.client(.auth).register(name: "Olga Organiser")
            let request = CreateGameRequest(
                kind: .pickup, startsAt: Date().addingTimeInterval(2 * 24 * 3600), location: Location(lat: 59.437, lng: 24.75),
                sport: .volleyball, privacy: .public, ageGroup: .adult, gender: .coed, skill: .any)
            _ = try await expect(201, stack.client(.games).call(GamesAPI.createGame, body: request, token: organizer.accessToken))

            let answer = try await stack.client(.search).call(SearchAPI.Internal.reindex)
            #expect(answer.status == 503)
            let problem = try #require(answer.problem)
            #expect(problem.code == ProblemCode.dependencyUnavailable.code)
            #expect(problem.detail?.contains("catalog did not answer") == true)
            #expect(problem.detail?.contains("games 1, teams 0") == true)
        }
    }
}
