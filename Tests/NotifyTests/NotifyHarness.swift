import AuthService
import CatalogService
import Configuration
import Contracts
import Foundation
import GamesService
import HuddleEffects
import Logging
import NotifyService
import ProviderStandIns
import SQLKit
import ServiceHTTP
import ServiceKitTesting
import ServiceStore
import Testing

/// Auth, catalog, games and notify on port 0, each publisher delivering to notify as deployed, so
/// every notification here is made from a real event of a real API call.
struct NotifyHarness {
    static let builders = [
        ModuleBuilder.auth,
        ModuleBuilder.catalog,
        ModuleBuilder.games,
        ModuleBuilder.notify,
    ]

    let stack: TestStack
    /// Notify's own store, for what the API does not show (the push queue).
    let store: Database
    /// The providers' stand-in, whose APNs notify pushes to.
    let standIn: TestClient
    var notify: TestClient { stack.client(.notify) }
    var catalog: TestClient { stack.client(.catalog) }
    var games: TestClient { stack.client(.games) }

    static func with(store: TestStore = .sqlite, config: [String: String] = [:], body: (NotifyHarness) async throws -> Void) async throws {
        // A file rather than SQLite's memory, so the test can read notify's queue too.
        let url =
            store == .sqlite
            ? "sqlite:" + FileManager.default.temporaryDirectory.appendingPathComponent("notify-\(UUID().uuidString).sqlite").path
            : try await store.freshDatabaseURL()
        defer { if store == .sqlite { try? FileManager.default.removeItem(atPath: String(url.dropFirst("sqlite:".count))) } }
        try await withPushStandIns { pushSettings, standInURL, _ in
            var settings = [
                "auth.events.subscribers": "notify", "catalog.events.subscribers": "games,notify", "games.events.subscribers": "notify",
                "notify.db.url": url,
                "notify.push.poll.ms": "20", "notify.push.backoff.ms": "50",
            ]
            settings.merge(pushSettings) { _, new in new }
            settings.merge(config) { _, new in new }
            try await TestStack.with(builders, store: store, config: settings) { stack in
                let database = try await Database.open(url: url, now: Effects.system.now, logger: .quiet("notify-test"))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await database.run() }
                    defer { group.cancelAll() }
                    try await body(NotifyHarness(stack: stack, store: database, standIn: TestClient(baseURL: standInURL)))
                }
            }
        }
    }

    /// What the stand-in's APNs recorded for `token` (refused attempts too with `rejected`),
    /// waiting (up to thirty seconds) until there are `count`.
    @discardableResult
    func apnsDeliveries(_ token: String, reaching count: Int = 0, rejected: Bool = false, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> [PushRecorder.Attempt]
    {
        try await deliveries("apns", token, reaching: count, rejected: rejected, sourceLocation: sourceLocation)
    }

    /// The same for the stand-in's FCM.
    @discardableResult
    func fcmDeliveries(_ token: String, reaching count: Int = 0, rejected: Bool = false, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> [PushRecorder.Attempt]
    {
        try await deliveries("fcm", token, reaching: count, rejected: rejected, sourceLocation: sourceLocation)
    }

    private func deliveries(_ service: String, _ token: String, reaching count: Int, rejected: Bool, sourceLocation: SourceLocation)
        async throws -> [PushRecorder.Attempt]
    {
        let found = try await standIn.pushes(service, to: token, reaching: count, rejected: rejected)
        if found.count < count {
            Issue.record("the stand-in's \(service) has \(found.count) pushes for the token, not \(count)", sourceLocation: sourceLocation)
        }
        return found
    }

    func player(_ name: String) async throws -> Session { try await stack.client(.auth).register(name: name) }

    func inbox(_ player: Session, query: QueryItems = QueryItems()) async throws -> InboxPage {
        try await notify.value(NotifyAPI.inbox, query: query, token: player.accessToken)
    }

    /// Waits (up to thirty seconds: events travel by polling, reminders wait for their time) until
    /// `player`'s inbox holds `count`.
    @discardableResult
    func inbox(
        _ player: Session, reaching count: Int, within timeout: Duration = patience, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> InboxPage {
        let page = try await poll(within: timeout) {
            try await inbox(player, query: Query.limit(100))
        } until: {
            $0.items.count >= count
        }
        if page.items.count < count { Issue.record("inbox holds \(page.items.count), not \(count)", sourceLocation: sourceLocation) }
        return page
    }

    @discardableResult
    func register(_ token: String, _ player: Session, platform: PushPlatform = .apns) async throws -> TestClient.Response {
        try await notify.call(
            NotifyAPI.registerDevice,
            body: RegisterDevice(platform: platform, token: token, environment: platform == .apns ? .sandbox : nil),
            token: player.accessToken)
    }

    /// Whether the stand-in's `service` accepted a push of `notification` for `token`, waiting (up to
    /// thirty seconds) until it has. (A sent job leaves the queue: the stand-in is where a push is seen.)
    func pushed(_ notification: NotificationID, to token: String, service: String = "apns") async throws -> Bool {
        let ofIt = { (attempts: [PushRecorder.Attempt]) in attempts.contains { $0.payload.contains(notification.description) } }
        return ofIt(
            try await poll {
                try await standIn.pushes(service, to: token)
            } until: {
                ofIt($0)
            })
    }

    func team(_ name: String, managedBy manager: Session, privacy: Privacy = .public) async throws -> Team {
        let request = CreateTeamRequest(
            name: name, sport: .volleyball, privacy: privacy, location: Self.tallinn, ageGroup: .adult, gender: .coed, skill: .intermediate)
        return try await expect(201, catalog.call(CatalogAPI.createTeam, body: request, token: manager.accessToken)).decode(Team.self)
    }

    static let tallinn = Location(lat: 59.437, lng: 24.7536, address: "Tallinn")
    static var nextWeek: Date { Date().addingTimeInterval(7 * 24 * 3600).wholeSeconds }

    /// An APNs token: 64 hex digits.
    static func apnsToken() -> String { (UUID().uuidString + UUID().uuidString).replacingOccurrences(of: "-", with: "").lowercased() }
}
