import AuthService
import CatalogService
import Contracts
import Foundation
import GamesService
import SearchService
import ServerContracts
import ServiceHTTP
import ServiceKitTesting

/// Auth, catalog, games and search on port 0; auth, catalog and games deliver their events to search.
struct SearchHarness {
    static let builders = [
        ModuleBuilder.auth,
        ModuleBuilder.catalog,
        ModuleBuilder.games,
        ModuleBuilder.search,
    ]
    static let adminEmail = "admin@example.com"

    let stack: TestStack
    var search: TestClient { stack.client(.search) }
    var games: TestClient { stack.client(.games) }
    var catalog: TestClient { stack.client(.catalog) }

    static func with<T>(store: TestStore = .sqlite, config: [String: String] = [:], body: (SearchHarness) async throws -> T) async throws
        -> T
    {
        var settings = [
            "catalog.events.subscribers": "games,search", "games.events.subscribers": "search", "auth.events.subscribers": "search",
            "auth.admin.emails": adminEmail, "catalog.events.retry.max.ms": "200", "games.events.retry.max.ms": "200",
            "auth.events.retry.max.ms": "200",
        ]
        settings.merge(config) { _, new in new }
        return try await TestStack.with(builders, store: store, config: settings) { stack in try await body(SearchHarness(stack: stack)) }
    }

    func player(_ name: String = "Test Player") async throws -> Session { try await stack.client(.auth).register(name: name) }

    /// Feeds events to search as catalog and games would, through `/internal/events`.
    func deliver(_ events: [EventEnvelope]) async throws {
        for batch in stride(from: 0, to: events.count, by: 500).map({ Array(events[$0..<min($0 + 500, events.count)]) }) {
            try await search.deliver(batch, to: .search)
        }
    }

    static func gameEvent(_ game: Game, type: EventType<GameEvent.GameChanged> = GameEvent.created) throws -> EventEnvelope {
        try type.event(GameEvent.GameChanged(game: game), aggregateID: game.id.description, occurredAt: Date())
    }

    static func game(
        at coordinates: Coordinates, sport: Sport = .volleyball, privacy: Privacy = .public, startsIn hours: Double = 48,
        skill: Skill = .intermediate, ageGroup: AgeGroup = .adult, gender: Gender = .coed, subsNeeded: Int = 0
    ) -> Game {
        Game(
            id: GameID(), kind: .pickup, organizerId: UserID(), startsAt: Date().addingTimeInterval(hours * 3600).wholeSeconds,
            sport: sport,
            privacy: privacy, ageGroup: ageGroup, gender: gender, skill: skill, capacity: 10, goingCount: 1, subsNeeded: subsNeeded,
            location: Location(lat: coordinates.lat, lng: coordinates.lng), createdAt: Date().wholeSeconds)
    }
}
