import Configuration
import Foundation
import ServiceKit

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

    /// Keys: `auth.bcrypt.cost` (default 12; tests use 4), `auth.jwt.privatekey`, `auth.admin.emails`
    /// (comma-separated), `auth.oauth.facebook.url` (Graph API's base URL, `https://graph.facebook.com`
    /// or the stand-in), `auth.oauth.facebook.appid` and `.appsecret` (the app's credentials),
    /// `auth.oauth.facebook.timeout.ms` (2000); `auth.oauth.apple.url` (`https://appleid.apple.com` or the
    /// stand-in), `auth.oauth.apple.audiences` (the app ids Sign in with Apple tokens may be issued to,
    /// comma-separated; none turns it off), `auth.oauth.apple.timeout.ms` (2000) and
    /// `auth.oauth.apple.keys.refetch.ms` (how soon Apple's keys are asked again for an unknown `kid`, 5000).
    init(reader: ConfigReader) {
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
    }
}
