import AuthService
import CatalogService
import Contracts
import HuddleEffects
import ModerationService
import ServiceHTTP
import ServiceKitTesting

/// Auth, catalog and moderation on port 0, each with a fresh store; `admin@example.com` holds the
/// administrator role (and so moderates).
struct ModerationHarness {
    static let adminEmail = "admin@example.com"
    static let builders: [ModuleBuilder] = [.auth, .catalog, .moderation]

    let stack: TestStack
    var moderation: TestClient { stack.client(.moderation) }
    var catalog: TestClient { stack.client(.catalog) }
    var auth: TestClient { stack.client(.auth) }

    static func with<T>(
        store: TestStore = .sqlite, config: [String: String] = [:], effects: Effects = .system, body: (ModerationHarness) async throws -> T
    ) async throws -> T {
        let settings = config.merging(["auth.admin.emails": adminEmail]) { given, _ in given }
        return try await TestStack.with(builders, store: store, config: settings, effects: effects) { stack in
            try await body(ModerationHarness(stack: stack))
        }
    }

    func player(_ name: String) async throws -> Session { try await auth.register(name: name) }
    func admin() async throws -> Session { try await auth.register(name: "Ada Admin", email: Self.adminEmail) }

    func team(by owner: Session) async throws -> Team {
        try await catalog.value(
            CatalogAPI.createTeam,
            body: CreateTeamRequest(
                name: "Rough Riders", sport: .volleyball, privacy: .public,
                location: Location(lat: 59.437, lng: 24.7536, address: "Tallinn"),
                ageGroup: .adult, gender: .coed, skill: .intermediate),
            token: owner.accessToken)
    }

    func report(_ team: Team, by player: Session, reason: ReportReason = .harassment) async throws -> TestClient.Response {
        try await moderation.call(
            ModerationAPI.report, body: ReportRequest(subject: .init(type: .team, id: SubjectID(team.id.uuid)), reason: reason),
            token: player.accessToken)
    }
}
