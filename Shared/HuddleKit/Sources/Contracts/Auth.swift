public import Foundation

// Wire types of the auth and people endpoints.

public struct RegisterRequest: Codable, Equatable, Sendable {
    public var email: String
    public var password: String
    public var name: String
    public init(email: String, password: String, name: String) {
        self.email = email
        self.password = password
        self.name = name
    }
}

public struct LoginRequest: Codable, Equatable, Sendable {
    public var email: String
    public var password: String
    /// The authenticator's current code (or a recovery code), for an account with a second factor on.
    public var code: String?
    public init(email: String, password: String, code: String? = nil) {
        self.email = email
        self.password = password
        self.code = code
    }
}

public struct OAuthLoginRequest: Codable, Equatable, Sendable {
    public var accessToken: String
    public init(accessToken: String) { self.accessToken = accessToken }
}

/// Sign in with Apple: what `ASAuthorizationAppleIDCredential` gives the app, and the raw nonce whose
/// SHA-256 hex the app set as the request's nonce.
public struct AppleSignInRequest: Codable, Equatable, Sendable, FieldConstraints {
    /// The name Apple gives the app on the first sign-in only.
    public struct Name: Codable, Equatable, Sendable {
        public var givenName: String?
        public var familyName: String?
        public init(givenName: String? = nil, familyName: String? = nil) {
            self.givenName = givenName
            self.familyName = familyName
        }
    }

    public var identityToken: String
    public var authorizationCode: String?
    public var rawNonce: String
    public var name: Name?

    public init(identityToken: String, authorizationCode: String? = nil, rawNonce: String, name: Name? = nil) {
        self.identityToken = identityToken
        self.authorizationCode = authorizationCode
        self.rawNonce = rawNonce
        self.name = name
    }

    public static var constraints: [String: JSONSchema] {
        ["identityToken": .text(1...8192), "authorizationCode": .text(1...1024), "rawNonce": .text(1...256)]
    }
}

/// `DELETE /v1/users/me`: proof of a recent sign-in, the password again or a fresh token from the
/// provider the account signs in with (a Sign in with Apple identity token, a Facebook access token).
public struct DeleteAccountRequest: Codable, Equatable, Sendable, FieldConstraints {
    public enum Provider: String, Codable, Sendable, CaseIterable, WireEnum {
        case apple, facebook, google
    }

    public var password: String?
    public var provider: Provider?
    public var token: String?

    public init(password: String) {
        self.password = password
        provider = nil
        token = nil
    }

    public init(provider: Provider, token: String) {
        password = nil
        self.provider = provider
        self.token = token
    }

    public static var constraints: [String: JSONSchema] { ["password": .text(1...200), "token": .text(1...8192)] }
}

/// Sign in with Apple's server-to-server notification, as Apple posts it: a JWT signed with Apple's keys.
public struct AppleNotificationBody: Codable, Equatable, Sendable, FieldConstraints {
    public var payload: String
    public init(payload: String) { self.payload = payload }
    public static var constraints: [String: JSONSchema] { ["payload": .text(1...16_384)] }
}

/// What auth answers a notification it took.
public struct AppleNotificationReceipt: Codable, Equatable, Sendable {
    public var received: Bool
    public init(received: Bool = true) { self.received = received }
}

public struct RefreshRequest: Codable, Equatable, Sendable {
    public var refreshToken: String
    public init(refreshToken: String) { self.refreshToken = refreshToken }
}

/// The signed-in user as a session carries it.
public struct SessionUser: Codable, Equatable, Sendable {
    public var id: UserID
    public var email: String
    public var name: String
    public var pictureUrl: String?
    public init(id: UserID, email: String, name: String, pictureUrl: String?) {
        self.id = id
        self.email = email
        self.name = name
        self.pictureUrl = pictureUrl
    }
}

public struct Session: Codable, Equatable, Sendable {
    public var user: SessionUser
    public var accessToken: String
    public var refreshToken: String
    /// Seconds until `accessToken` expires.
    public var expiresIn: Int
    public init(user: SessionUser, accessToken: String, refreshToken: String, expiresIn: Int) {
        self.user = user
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
    }
}

/// What anyone may see of a player.
public struct PublicProfile: Codable, Equatable, Sendable {
    public var id: UserID
    public var name: String
    /// The picture's address: its medium size when uploaded to Huddle (`picture`), or one an app or
    /// Facebook gave.
    public var pictureUrl: String?
    public var sports: [Sport]
    /// The picture uploaded to Huddle, in three sizes.
    public var picture: PictureSizes?
    public init(id: UserID, name: String, pictureUrl: String?, sports: [Sport], picture: PictureSizes? = nil) {
        self.id = id
        self.name = name
        self.pictureUrl = pictureUrl
        self.sports = sports
        self.picture = picture
    }
}

/// What the signed-in user sees of themselves.
public struct MyProfile: Codable, Equatable, Sendable {
    public var id: UserID
    public var email: String
    public var name: String
    public var pictureUrl: String?
    public var sports: [Sport]
    /// Whether the address was proven mine: a mailed token used, or a provider that vouched for it.
    public var emailVerified: Bool
    /// The picture uploaded to Huddle (`pictureMediaId`), in three sizes; `pictureUrl` is its medium one.
    public var picture: PictureSizes?
    /// The language pushes, the inbox and mails are written in for me (BCP 47: `en`, `et`, `it`; others
    /// read English); absent until set.
    public var locale: String?
    public init(
        id: UserID, email: String, name: String, pictureUrl: String?, sports: [Sport], emailVerified: Bool = false,
        picture: PictureSizes? = nil, locale: String? = nil
    ) {
        self.locale = locale
        self.id = id
        self.email = email
        self.name = name
        self.pictureUrl = pictureUrl
        self.sports = sports
        self.emailVerified = emailVerified
        self.picture = picture
    }
}

/// `PATCH /v1/users/me`: absent fields stay as they are; `pictureUrl: null` or `pictureMediaId: null` removes the
/// picture. `pictureMediaId` is one of my uploads made for `avatar` and completed.
public struct UpdateProfileRequest: Codable, Equatable, Sendable {
    public var name: String?
    public var pictureUrl: String??
    public var pictureMediaId: MediaID??
    public var sports: [Sport]?
    /// BCP 47 (`et`, `it-IT`): the language Huddle writes to me in.
    public var locale: String?
    public init(
        name: String? = nil, pictureUrl: String?? = nil, pictureMediaId: MediaID?? = nil, sports: [Sport]? = nil, locale: String? = nil
    ) {
        self.locale = locale
        self.name = name
        self.pictureUrl = pictureUrl
        self.pictureMediaId = pictureMediaId
        self.sports = sports
    }

    private enum CodingKeys: String, CodingKey { case name, pictureUrl, pictureMediaId, sports, locale }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        sports = try container.decodeIfPresent([Sport].self, forKey: .sports)
        locale = try container.decodeIfPresent(String.self, forKey: .locale)
        pictureUrl = try container.decodeNullable(String.self, forKey: .pictureUrl)
        pictureMediaId = try container.decodeNullable(MediaID.self, forKey: .pictureMediaId)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(sports, forKey: .sports)
        try container.encodeIfPresent(locale, forKey: .locale)
        if let pictureUrl { try container.encode(pictureUrl, forKey: .pictureUrl) }
        if let pictureMediaId { try container.encode(pictureMediaId, forKey: .pictureMediaId) }
    }
}

extension KeyedDecodingContainer {
    /// A field a PATCH may leave out (`.none`), set to null (`.some(nil)`) or set (`.some(value)`).
    public func decodeNullable<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T?? {
        contains(key) ? .some(try decodeIfPresent(type, forKey: key)) : .none
    }
}

public struct FriendMatchRequest: Codable, Equatable, Sendable, FieldConstraints {
    public static let maxFacebookIDs = 5000
    /// A Facebook user id as the Graph API gives it (digits; letters, `_` and `-` allowed besides).
    public static let facebookID = JSONSchema.text(1...64).pattern(JSONSchema.whole("[A-Za-z0-9_-]*"))
    public static var constraints: [String: JSONSchema] {
        var ids = JSONSchema().items(0...maxFacebookIDs)
        ids.items = facebookID
        return ["facebookIds": ids]
    }

    public var facebookIds: [String]
    public init(facebookIds: [String]) { self.facebookIds = facebookIds }
}

public struct FriendMatch: Codable, Equatable, Sendable {
    public var facebookId: String
    public var profile: PublicProfile
    public init(facebookId: String, profile: PublicProfile) {
        self.facebookId = facebookId
        self.profile = profile
    }
}

public struct FriendMatchResponse: Codable, Equatable, Sendable {
    public var items: [FriendMatch]
    public init(items: [FriendMatch]) { self.items = items }
}

/// `POST /v1/auth/password/forgot`: the address to mail a reset token to, if it has an account.
public struct ForgotPasswordRequest: Codable, Equatable, Sendable, FieldConstraints {
    public var email: String
    public init(email: String) { self.email = email }
    public static var constraints: [String: JSONSchema] { ["email": RegisterRequest.emailSchema] }
}

/// `POST /v1/auth/password/reset`: the mailed token and the new password.
public struct ResetPasswordRequest: Codable, Equatable, Sendable, FieldConstraints {
    public var token: String
    public var password: String
    public init(token: String, password: String) {
        self.token = token
        self.password = password
    }
    public static var constraints: [String: JSONSchema] { ["token": .text(1...200), "password": RegisterRequest.passwordSchema] }
}

/// `PUT /v1/users/me/password`.
public struct ChangePasswordRequest: Codable, Equatable, Sendable, FieldConstraints {
    public var currentPassword: String
    public var newPassword: String
    public init(currentPassword: String, newPassword: String) {
        self.currentPassword = currentPassword
        self.newPassword = newPassword
    }
    public static var constraints: [String: JSONSchema] {
        ["currentPassword": .text(1...RegisterRequest.passwordLength.upperBound), "newPassword": RegisterRequest.passwordSchema]
    }
}

/// A 202: the request was taken, and what follows happens by mail.
public struct Accepted: Codable, Equatable, Sendable {
    public init() {}
}

/// One of my signed-in devices (`GET /v1/users/me/sessions`).
public struct DeviceSession: Codable, Equatable, Sendable {
    public var id: SessionID
    public var createdAt: Date
    public var lastUsedAt: Date
    /// What the device's `User-Agent` said when it signed in or last refreshed.
    public var userAgent: String?
    /// The session this request was made with.
    public var current: Bool

    public init(id: SessionID, createdAt: Date, lastUsedAt: Date, userAgent: String?, current: Bool) {
        self.id = id
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.userAgent = userAgent
        self.current = current
    }
}

/// `POST /v1/auth/email/verify`: the token mailed to an address.
public struct VerifyEmailRequest: Codable, Equatable, Sendable, FieldConstraints {
    public var token: String
    public init(token: String) { self.token = token }
    public static var constraints: [String: JSONSchema] { ["token": .text(1...200)] }
}

/// `PUT /v1/users/me/email`: the new address, and the password when the account has one.
public struct ChangeEmailRequest: Codable, Equatable, Sendable, FieldConstraints {
    public var email: String
    public var password: String?
    public init(email: String, password: String?) {
        self.email = email
        self.password = password
    }
    public static var constraints: [String: JSONSchema] {
        ["email": RegisterRequest.emailSchema, "password": .text(1...RegisterRequest.passwordLength.upperBound)]
    }
}

/// Sign in with Google: the ID token Google's SDK gave the app, and the nonce the app put in its
/// request, when it put one.
public struct GoogleSignInRequest: Codable, Equatable, Sendable, FieldConstraints {
    public var idToken: String
    public var nonce: String?
    public init(idToken: String, nonce: String? = nil) {
        self.idToken = idToken
        self.nonce = nonce
    }
    public static var constraints: [String: JSONSchema] { ["idToken": .text(1...8192), "nonce": .text(1...256)] }
}

/// `POST /v1/users/me/second-factor`: the secret to put in an authenticator app (as text, or as the
/// `otpauth://` URI in a QR code). The factor is off until a first code confirms it.
public struct SecondFactorSetup: Codable, Equatable, Sendable {
    public var secret: String
    public var otpauthUri: String
    public init(secret: String, otpauthUri: String) {
        self.secret = secret
        self.otpauthUri = otpauthUri
    }
}

/// A code from the authenticator (six digits), or a recovery code where one is taken.
public struct SecondFactorCode: Codable, Equatable, Sendable, FieldConstraints {
    public var code: String
    public init(code: String) { self.code = code }
    public static var constraints: [String: JSONSchema] { ["code": .text(1...32)] }
}

/// Single-use codes that stand in for the authenticator once each; shown once, when the factor is turned on.
public struct RecoveryCodes: Codable, Equatable, Sendable {
    public var recoveryCodes: [String]
    public init(recoveryCodes: [String]) { self.recoveryCodes = recoveryCodes }
}
