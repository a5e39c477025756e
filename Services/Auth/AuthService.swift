public import Configuration
public import Hummingbird
public import ServiceKit
import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import ServiceClients

/// Builds the auth service: accounts, sessions, tokens, profiles and follows.
///
/// Configuration keys (besides the shared `auth.http.*`, `auth.db.url`, `internal.token`):
/// - `auth.bcrypt.cost` — bcrypt cost, default 12 (tests use 4).
/// - `auth.jwt.privatekey` — base64url Ed25519 seed; default: generated once and kept in the store.
/// - `auth.admin.emails` — comma-separated emails that hold the administrator role.
/// - `auth.revocation.poll.ms` — how often revoked sessions are re-read, default 500.
/// - `auth.oauth.facebook.url` — Graph API base URL (`https://graph.facebook.com`, or the stub).
/// - `auth.oauth.facebook.appid`, `auth.oauth.facebook.appsecret` — the app's credentials.
/// - `auth.oauth.facebook.timeout.ms` — provider timeout, default 2000.
public func buildAuthService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some ApplicationProtocol {
    let logger = dependencies.logger
    let database = try await Database.open(url: reader.databaseURL(for: .auth), logger: logger)
    let users = SQLUserStore()
    let sessions = SQLSessionStore()
    let issuer = TokenIssuer()
    let verifier = TokenVerifier(source: LocalKeySource(issuer: issuer, database: database, sessions: sessions))
    let cost = UInt8(clamping: reader.integer("auth.bcrypt.cost", default: 12))
    let accounts = Accounts(
        database: database, users: users, sessions: sessions, attempts: SQLLoginAttemptStore(),
        hasher: try await PasswordHasher(cost: cost), issuer: issuer, verifier: verifier,
        facebook: FacebookVerifier(
            settings: .init(
                baseURL: reader.text("auth.oauth.facebook.url"),
                appID: reader.text("auth.oauth.facebook.appid", default: "huddle-dev-app"),
                appSecret: reader.text("auth.oauth.facebook.appsecret", isSecret: true) ?? "",
                timeout: reader.milliseconds("auth.oauth.facebook.timeout.ms", default: 2000)),
            httpClient: dependencies.providerClient, logger: logger),
        throttle: LoginThrottle(),
        administratorEmails: Set(reader.list("auth.admin.emails").map(AuthValidation.normalizedEmail)))

    let router = Router<HuddleRequestContext>.huddle(
        module: .auth, verifier: verifier, dependencies: dependencies, healthChecks: ["database": database.healthCheck])
    let keys = KeysController(issuer: issuer, database: database, sessions: sessions)
    keys.addPublic(to: router)
    router.addRoutes(SessionsController(accounts: accounts).endpoints, atPath: "/v1/auth")
    router.addRoutes(UsersController(database: database, users: users, follows: SQLFollowStore()).endpoints, atPath: "/v1/users")
    let internalRoutes = router.internalGroup(token: dependencies.internalToken)
    internalRoutes.addRoutes(keys.internalEndpoints)
    internalRoutes.post("users/profiles") { request, context in
        let body = try await request.decodeJSON(ProfilesRequest.self, context: context)
        guard body.ids.count <= 1000 else { throw CommonError.invalid("ids", "must hold at most 1000 ids") }
        let found = try await database.read { sql in try await users.users(ids: body.ids, on: sql) }
        return JSONResponse(ProfilesResponse(items: found.map(\.publicProfile)))
    }
    // Every profile, page by page, for a read model rebuilding itself (search).
    internalRoutes.get("snapshots/profiles") { request, _ in
        let page = try PageRequest(request)
        let found = try await database.read { sql in try await users.users(after: page.cursor, limit: page.limit + 1, on: sql) }
        return JSONResponse(page.page(found, cursor: { PageRequest.cursor($0.id.description) }, item: \.publicProfile))
    }

    var app = Application(
        router: router, configuration: reader.serverConfiguration(for: .auth),
        onServerRunning: dependencies.announce(.auth), logger: logger)
    app.addServices(
        database,
        RevocationPoller(verifier: verifier, interval: reader.milliseconds("auth.revocation.poll.ms", default: 500), logger: logger),
        OutboxDispatcher(
            database: database, transport: EventsClient(dependencies: dependencies),
            settings: try .init(reader: reader, module: .auth), logger: logger))
    let configuredKey = reader.text("auth.jwt.privatekey", isSecret: true)
    app.beforeServerStarts {
        try await database.migrate(AuthMigrations.all, logger: logger)
        try await issuer.prepare(configuredKey: configuredKey, database: database)
    }
    return app
}
