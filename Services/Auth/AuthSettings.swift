import Configuration
import Foundation
import ServiceFeatures
import ServiceHTTP

/// Auth's configuration, read once at start.
struct AuthSettings: Sendable {
    /// bcrypt's cost for new password hashes.
    var bcryptCost: UInt8
    /// The signing key's Ed25519 seed (base64url); nil: one generated once and kept in the store.
    var signingKey: String?
    /// Who holds the administrator role, by normalized email.
    var administratorEmails: Set<String>
    var facebook: FacebookVerifier.Settings
    var apple: AppleIdentityVerifier.Settings
    var google: GoogleIdentityVerifier.Settings
    /// `auth.staff.second-factor`: `required` makes staff work need a session signed in with a second factor.
    var staffNeedSecondFactor: Bool
    /// `auth.second-factor.key` (32 bytes, base64): seals authenticator secrets in the store. Unset, a
    /// key derived from auth's internal key is used, and rotating that key turns every factor off.
    var secondFactorKey: TokenSealer?
    /// With a Sign in with Apple key: codes are exchanged for refresh tokens, kept sealed with `refreshKey`.
    var appleTokens: AppleTokenExchange.Settings?
    var appleRefreshKey: TokenSealer?
    /// How often revocations Apple has not taken yet are tried again (`auth.oauth.apple.revoke.retry.ms`, 60000).
    var appleRevokeRetry: Duration
    /// The erasure journal's file (`auth.erasure.journal.file`; `huddle`: `data/erasure-journal.jsonl`)
    /// or, taking precedence, its bucket (`auth.erasure.journal.s3.*`); neither keeps no journal.
    var erasureJournal: URL?
    var erasureJournalBucket: BucketSettings?
    /// How long a ready data export is kept (`auth.exports.keep.ms`, seven days).
    var exportsKept: Duration
    /// How often pending exports are looked for when none was announced (`auth.exports.poll.ms`, 2000).
    var exportsPoll: Duration
    /// How long an access token lasts (`auth.access.lifetime.ms`, 15 minutes, which is also the most).
    var accessLifetime: TimeInterval
    /// How long sessions last (`auth.session.idle.ms`, 30 days since the last refresh; `auth.session.max.ms`, a year).
    var sessionLifetime: SessionLifetime
    /// How long a mailed reset token works (`auth.password.reset.ttl.ms`, 30 minutes).
    var resetLifetime: TimeInterval
    /// How mail leaves (`mail.*`).
    var mail: MailSettings

    /// Keys: `auth.bcrypt.cost` (default 12; tests use 4), `auth.jwt.privatekey`, `auth.admin.emails`
    /// (comma-separated), `auth.oauth.facebook.url` (Graph API's base URL, `https://graph.facebook.com`
    /// or the stand-in), `auth.oauth.facebook.appid` and `.appsecret` (the app's credentials),
    /// `auth.oauth.facebook.timeout.ms` (2000); `auth.oauth.apple.url` (`https://appleid.apple.com` or the
    /// stand-in), `auth.oauth.apple.audiences` (the app ids Sign in with Apple tokens may be issued to,
    /// comma-separated; none turns it off), `auth.oauth.apple.timeout.ms` (2000) and
    /// `auth.oauth.apple.keys.refetch.ms` (how soon Apple's keys are asked again for an unknown `kid`, 5000).
    /// With `auth.oauth.apple.key` (the team's Sign in with Apple `.p8` key), `.key.id`, `.team.id`,
    /// `.client.id` (the app's bundle id; the first audience by default) and `.refresh.key` (32 random
    /// bytes, base64, that seal Apple's refresh tokens), sign-in codes are exchanged at Apple.
    /// `auth.oauth.google.url` (`https://www.googleapis.com` or the stand-in), `.client-ids` (the OAuth client ids ID
    /// tokens may be issued to, comma-separated; none turns Sign in with Google off), `.timeout.ms`, `.keys.refetch.ms`.
    /// `auth.erasure.journal.file` or the bucket `auth.erasure.journal.s3.*` (`BucketSettings`): where every
    /// account deletion is also written down (`ErasureJournal`).
    /// `auth.exports.keep.ms` and `auth.exports.poll.ms`: data exports. `auth.password.reset.ttl.ms`, and
    /// `MailSettings`' `mail.*`.
    init(reader: ConfigReader) throws {
        bcryptCost = UInt8(clamping: reader.integer("auth.bcrypt.cost", default: 12))
        signingKey = reader.text("auth.jwt.privatekey", isSecret: true)
        administratorEmails = Set(reader.list("auth.admin.emails").map(AuthValidation.normalizedEmail))
        facebook = FacebookVerifier.Settings(
            baseURL: reader.text("auth.oauth.facebook.url"),
            appID: reader.text("auth.oauth.facebook.appid", default: "huddle-dev-app"),
            appSecret: reader.text("auth.oauth.facebook.appsecret", isSecret: true) ?? "",
            timeout: reader.milliseconds("auth.oauth.facebook.timeout.ms", default: 2000))
        apple = AppleIdentityVerifier.Settings(
            baseURL: reader.text("auth.oauth.apple.url", default: AppleIdentityVerifier.issuer),
            audiences: Set(reader.list("auth.oauth.apple.audiences")),
            timeout: reader.milliseconds("auth.oauth.apple.timeout.ms", default: 2000),
            refetchAfter: reader.milliseconds("auth.oauth.apple.keys.refetch.ms", default: 5000))
        staffNeedSecondFactor = reader.text("auth.staff.second-factor", default: "optional") == "required"
        if let key = reader.text("auth.second-factor.key", isSecret: true), !key.isEmpty {
            guard let sealer = TokenSealer(base64Key: key) else {
                throw MissingConfiguration(key: "auth.second-factor.key", hint: "32 random bytes, base64, to seal authenticator secrets")
            }
            secondFactorKey = sealer
        }
        google = GoogleIdentityVerifier.Settings(
            baseURL: reader.text("auth.oauth.google.url", default: "https://www.googleapis.com"),
            clientIDs: Set(reader.list("auth.oauth.google.client-ids")),
            timeout: reader.milliseconds("auth.oauth.google.timeout.ms", default: 2000),
            refetchAfter: reader.milliseconds("auth.oauth.google.keys.refetch.ms", default: 5000))
        appleRevokeRetry = reader.milliseconds("auth.oauth.apple.revoke.retry.ms", default: 60_000)
        erasureJournal = reader.text("auth.erasure.journal.file").map { URL(fileURLWithPath: $0) }
        erasureJournalBucket = try BucketSettings(reader: reader, prefix: "auth.erasure.journal.s3")
        exportsKept = reader.milliseconds("auth.exports.keep.ms", default: 7 * 86_400_000)
        exportsPoll = reader.milliseconds("auth.exports.poll.ms", default: 2000)
        accessLifetime = TimeInterval(max(1000, reader.integer("auth.access.lifetime.ms", default: 900_000))) / 1000
        sessionLifetime = SessionLifetime(
            idle: TimeInterval(max(60_000, reader.integer("auth.session.idle.ms", default: 30 * 86_400_000))) / 1000,
            max: TimeInterval(max(60_000, reader.integer("auth.session.max.ms", default: 365 * 86_400_000))) / 1000)
        resetLifetime = TimeInterval(max(1000, reader.integer("auth.password.reset.ttl.ms", default: 1_800_000))) / 1000
        mail = try MailSettings(reader: reader)
        guard let key = reader.text("auth.oauth.apple.key", isSecret: true), !key.isEmpty else { return }
        guard let keyID = reader.text("auth.oauth.apple.key.id"), let teamID = reader.text("auth.oauth.apple.team.id"),
            let clientID = reader.text("auth.oauth.apple.client.id") ?? reader.list("auth.oauth.apple.audiences").first
        else {
            throw MissingConfiguration(
                key: "auth.oauth.apple.key.id", hint: "with a Sign in with Apple key, its key id, team id and client id")
        }
        guard let sealer = reader.text("auth.oauth.apple.refresh.key", isSecret: true).flatMap(TokenSealer.init(base64Key:)) else {
            throw MissingConfiguration(key: "auth.oauth.apple.refresh.key", hint: "32 random bytes, base64, to seal Apple's refresh tokens")
        }
        appleTokens = AppleTokenExchange.Settings(
            baseURL: apple.baseURL, clientID: clientID, teamID: teamID, keyID: keyID, privateKeyPEM: key, timeout: apple.timeout)
        appleRefreshKey = sealer
    }
}
