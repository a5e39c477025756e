import AuthService
import CatalogService
import Contracts
import Foundation
import GamesService
import ServiceHTTP
import ServiceKitTesting

/// Auth, catalog and games on port 0, each with a fresh store; catalog delivers its events to games.
struct GamesHarness {
    static let builders = [
        ModuleBuilder.auth,
        ModuleBuilder.catalog,
        ModuleBuilder.games,
    ]

    let stack: TestStack
    var games: TestClient { stack.client(.games) }
    var catalog: TestClient { stack.client(.catalog) }
    var auth: TestClient { stack.client(.auth) }

    static func with<T>(
        store: TestStore = .sqlite, config: [String: String] = [:], directory: [ServiceModule: String] = [:],
        body: (GamesHarness) async throws -> T
    ) async throws -> T {
        var settings = [
            "catalog.events.subscribers": "games", "catalog.events.retry.max.ms": "200",
            "games.events.retry.max.ms": "200", "auth.admin.emails": adminEmail,
        ]
        settings.merge(config) { _, new in new }
        return try await TestStack.with(builders, store: store, config: settings, directory: directory) { stack in
            try await body(GamesHarness(stack: stack))
        }
    }

    func player(_ name: String = "Test Player") async throws -> Session { try await auth.register(name: name) }

    /// A team managed by `manager`, with `players` joined (the team is public while they join).
    func team(managedBy manager: Session, players: [Session] = [], privacy: Privacy = .public, name: String = "Tallinn Spikers")
        async throws -> Team
    {
        let request = CreateTeamRequest(
            name: name, sport: .volleyball, privacy: .public, location: Self.tallinn, ageGroup: .adult, gender: .coed,
            skill: .intermediate)
        let team = try await expect(201, catalog.call(CatalogAPI.createTeam, body: request, token: manager.accessToken)).decode(Team.self)
        for player in players { _ = try await expect(200, catalog.call(CatalogAPI.joinTeam, team.id, token: player.accessToken)) }
        if privacy != .public {
            _ = try await expect(
                200, catalog.call(CatalogAPI.updateTeam, team.id, body: UpdateTeamRequest(privacy: privacy), token: manager.accessToken))
        }
        return team
    }

    func create(_ request: CreateGameRequest, by session: Session) async throws -> Game {
        try await expect(201, games.call(GamesAPI.createGame, body: request, token: session.accessToken)).decode(Game.self)
    }

    func pickup(
        by session: Session, privacy: Privacy = .public, capacity: Int? = nil, startsAt: Date = GamesHarness.nextWeek,
        location: Location = GamesHarness.kadriorg
    ) async throws -> Game {
        try await create(Self.pickupRequest(privacy: privacy, capacity: capacity, startsAt: startsAt, location: location), by: session)
    }

    func join(_ game: Game, as session: Session) async throws -> RosterPlace {
        try await expect(200, games.call(GamesAPI.joinGame, game.id, token: session.accessToken)).decode(RosterPlace.self)
    }

    func answer(_ game: Game, _ status: RosterStatus, as session: Session) async throws -> TestClient.Response {
        try await answer(game.id, status, as: session)
    }

    func answer(_ id: GameID, _ status: RosterStatus, as session: Session) async throws -> TestClient.Response {
        try await games.call(GamesAPI.setStatus, id, body: SetRosterStatusRequest(status: status), token: session.accessToken)
    }

    func read(_ game: Game, as session: Session, query: QueryItems = QueryItems(), rawQuery: String? = nil) async throws
        -> TestClient.Response
    {
        try await games.call(GamesAPI.game, game.id, query: query, rawQuery: rawQuery, token: session.accessToken)
    }

    func roster(_ game: Game, as session: Session) async throws -> [RosterEntry] {
        try await expect(200, games.call(GamesAPI.roster, game.id, token: session.accessToken)).decode(Page<RosterEntry>.self).items
    }

    static let tallinn = Location(lat: 59.437, lng: 24.7536, address: "Tallinn")
    static let kadriorg = Location(lat: 59.4381, lng: 24.7924, address: "Kadriorg stadium")
    static var nextWeek: Date { Date().addingTimeInterval(7 * 24 * 3600).wholeSeconds }

    static func pickupRequest(
        privacy: Privacy = .public, capacity: Int? = nil, startsAt: Date = nextWeek, location: Location = kadriorg
    ) -> CreateGameRequest {
        CreateGameRequest(
            kind: .pickup, startsAt: startsAt, location: location, sport: .volleyball, privacy: privacy, ageGroup: .adult,
            gender: .coed, skill: .intermediate, capacity: capacity, description: "Beach volleyball, bring water")
    }
}
