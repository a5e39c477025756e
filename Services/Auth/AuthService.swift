public import Configuration
import Contracts
import Foundation
public import Hummingbird
public import ServiceKit

/// Builds the auth service: accounts, sessions, tokens, profiles and follows.
///
/// Configuration keys (besides the skeleton's `auth.http.*`, `auth.db.url`, `auth.revocation.poll.ms`,
/// `auth.events.*` and `internal.token`):
/// - `auth.bcrypt.cost` — bcrypt cost, default 12 (tests use 4).
/// - `auth.jwt.privatekey` — base64url Ed25519 seed; default: generated once and kept in the store.
/// - `auth.admin.emails` — comma-separated emails that hold the administrator role.
/// - `auth.oauth.facebook.url` — Graph API base URL (`https://graph.facebook.com`, or the stand-in).
/// - `auth.oauth.facebook.appid`, `auth.oauth.facebook.appsecret` — the app's credentials.
/// - `auth.oauth.facebook.timeout.ms` — provider timeout, default 2000.
public func buildAuthService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some ApplicationProtocol {
    let now: @Sendable () -> Date = Date.init
    let issuer = TokenIssuer()
    let sessions = SQLSessionStore()
    var service = try await ServiceSkeleton(
        .auth, reader: reader, dependencies: dependencies, migrations: AuthMigrations.all,
        keys: { LocalKeySource(issuer: issuer, database: $0, sessions: sessions, now: now) })
    let keys = LocalKeySource(issuer: issuer, database: service.database, sessions: sessions, now: now)
    let users = SQLUserStore()
    let accounts = Accounts(
        database: service.database, users: users, sessions: sessions, attempts: SQLLoginAttemptStore(),
        hasher: try await PasswordHasher(cost: UInt8(clamping: reader.integer("auth.bcrypt.cost", default: 12))),
        issuer: issuer, verifier: service.verifier,
        facebook: FacebookVerifier(
            settings: .init(
                baseURL: reader.text("auth.oauth.facebook.url"),
                appID: reader.text("auth.oauth.facebook.appid", default: "huddle-dev-app"),
                appSecret: reader.text("auth.oauth.facebook.appsecret", isSecret: true) ?? "",
                timeout: reader.milliseconds("auth.oauth.facebook.timeout.ms", default: 2000)),
            httpClient: dependencies.providerClient, logger: dependencies.logger),
        throttle: LoginThrottle(),
        administratorEmails: Set(reader.list("auth.admin.emails").map(AuthValidation.normalizedEmail)), now: now)
    let profiles = Profiles(database: service.database, users: users, follows: SQLFollowStore())

    service.add(
        KeysController(keys: keys), SessionsController(accounts: accounts), UsersController(profiles: profiles),
        AuthInternalController(profiles: profiles, keys: keys))
    try service.publishEvents()
    let configuredKey = reader.text("auth.jwt.privatekey", isSecret: true)
    let database = service.database
    service.beforeServerStarts { try await issuer.prepare(configuredKey: configuredKey, database: database) }
    return try service.application()
}
