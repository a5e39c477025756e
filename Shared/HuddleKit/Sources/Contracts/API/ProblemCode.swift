public import Foundation

/// A problem an operation can answer: its status and its stable `code`. Servers raise problems
/// with these, descriptions list them, and clients switch on them.
public struct ProblemCode: Sendable, Hashable, CustomStringConvertible {
    public let status: Int
    public let code: String

    public init(_ status: Int, _ code: String) {
        self.status = status
        self.code = code
    }

    public var description: String { "\(status) \(code)" }
}

extension ProblemCode {
    // Shared by every service.
    public static let malformedBody = ProblemCode(400, "MALFORMED_BODY")
    public static let unauthorized = ProblemCode(401, "UNAUTHORIZED")
    public static let forbidden = ProblemCode(403, "FORBIDDEN")
    public static let notFound = ProblemCode(404, "NOT_FOUND")
    public static let noSuchRoute = ProblemCode(404, "NO_SUCH_ROUTE")
    public static let methodNotAllowed = ProblemCode(405, "METHOD_NOT_ALLOWED")
    /// A retry whose first attempt with the same `Idempotency-Key` has not finished.
    public static let idempotencyKeyInUse = ProblemCode(409, "IDEMPOTENCY_KEY_IN_USE")
    public static let payloadTooLarge = ProblemCode(413, "PAYLOAD_TOO_LARGE")
    /// A write that must be safe to retry sent without its `Idempotency-Key`.
    public static let idempotencyKeyRequired = ProblemCode(428, "IDEMPOTENCY_KEY_REQUIRED")
    public static let validationFailed = ProblemCode(422, "VALIDATION_FAILED")
    public static let rateLimited = ProblemCode(429, "RATE_LIMITED")
    public static let internalError = ProblemCode(500, "INTERNAL")
    public static let dependencyUnavailable = ProblemCode(503, "DEPENDENCY_UNAVAILABLE")

    // Auth.
    public static let invalidCredentials = ProblemCode(401, "INVALID_CREDENTIALS")
    public static let invalidRefreshToken = ProblemCode(401, "INVALID_REFRESH_TOKEN")
    public static let invalidOAuthToken = ProblemCode(401, "INVALID_OAUTH_TOKEN")
    /// A Sign in with Apple identity token that is not Apple's, not for this app, expired or not for this nonce.
    public static let invalidProviderToken = ProblemCode(401, "INVALID_PROVIDER_TOKEN")
    /// Deleting an account without proof of a recent sign-in (the password, or a fresh provider token).
    public static let reauthenticationRequired = ProblemCode(401, "REAUTHENTICATION_REQUIRED")
    /// A mailed token (a password reset) that is unknown, used, replaced by a later one or expired.
    public static let invalidToken = ProblemCode(400, "INVALID_TOKEN")
    /// A push's answer token (`data.rsvpToken`) that is not Huddle's, is for another game, or whose game has started.
    public static let invalidRSVPToken = ProblemCode(401, "INVALID_TOKEN")
    public static let unknownProvider = ProblemCode(404, "UNKNOWN_PROVIDER")
    /// A sign-in of an account with a second factor on, without its code (or with a wrong one).
    public static let secondFactorRequired = ProblemCode(401, "SECOND_FACTOR_REQUIRED")
    /// Staff work where the deployment requires a second factor, by a session signed in without one.
    public static let secondFactorSetupRequired = ProblemCode(403, "SECOND_FACTOR_SETUP_REQUIRED")
    /// Setting a second factor up while one is on, or confirming one never set up.
    public static let secondFactorState = ProblemCode(409, "SECOND_FACTOR_STATE")
    public static let emailTaken = ProblemCode(409, "EMAIL_TAKEN")
    public static let cannotFollowSelf = ProblemCode(422, "CANNOT_FOLLOW_SELF")
    public static let tooManyAttempts = ProblemCode(429, "TOO_MANY_ATTEMPTS")
    public static let oauthProviderUnavailable = ProblemCode(503, "OAUTH_PROVIDER_UNAVAILABLE")

    // Catalog.
    public static let managerCannotLeave = ProblemCode(409, "MANAGER_CANNOT_LEAVE")
    public static let sportMismatch = ProblemCode(422, "SPORT_MISMATCH")
    public static let weatherUnavailable = ProblemCode(503, "WEATHER_UNAVAILABLE")
    public static let noHolePositions = ProblemCode(409, "NO_HOLE_POSITIONS")

    // Games.
    public static let gameCancelled = ProblemCode(409, "GAME_CANCELLED")
    public static let gameStarted = ProblemCode(409, "GAME_STARTED")
    public static let roundFinished = ProblemCode(409, "ROUND_FINISHED")
    public static let versionConflict = ProblemCode(409, "VERSION_CONFLICT")
    public static let webSocketRequired = ProblemCode(426, "UPGRADE_REQUIRED")

    // Betting.
    /// The odds the user saw are not the current ones; the answer carries the current odds.
    public static let oddsChanged = ProblemCode(409, "ODDS_CHANGED")
    public static let fixtureStarted = ProblemCode(422, "FIXTURE_STARTED")
    public static let insufficientFunds = ProblemCode(422, "INSUFFICIENT_FUNDS")
    public static let duplicateSelection = ProblemCode(422, "DUPLICATE_SELECTION")
    public static let stakeOutOfRange = ProblemCode(422, "STAKE_OUT_OF_RANGE")
    public static let tooManySelections = ProblemCode(422, "TOO_MANY_SELECTIONS")
    /// A wallet refill asked for too soon, or for a wallet holding the grant; `availableAt` says when one may be asked for.
    public static let refillNotDue = ProblemCode(409, "REFILL_NOT_DUE")

    // Search.
    /// A postcode the geocoding provider does not know in that country.
    public static let unknownPostcode = ProblemCode(422, "UNKNOWN_POSTCODE")

    // Chat.
    /// Over the per-user, per-room flood limit; `Retry-After` says when the next message is taken.
    public static let floodLimited = ProblemCode(429, "RATE_LIMITED")
    /// A direct room with a player who blocked me, or whom I blocked.
    public static let blocked = ProblemCode(403, "BLOCKED")
    public static let cannotMessageSelf = ProblemCode(422, "CANNOT_MESSAGE_SELF")

    // Moderation.
    /// Another moderator decided the case first.
    public static let caseClosed = ProblemCode(409, "CASE_CLOSED")
    /// A suspended or banned player; `until` says when a suspension ends (absent for a ban).
    public static let accountSuspended = ProblemCode(403, "ACCOUNT_SUSPENDED")
    /// A write the word filter refused; `errors` names the field.
    public static let contentRefused = ProblemCode(422, "CONTENT_REFUSED")

    // Media.
    /// An upload larger than `media.max-bytes`, declared or sent.
    public static let tooLarge = ProblemCode(422, "TOO_LARGE")
    /// Not an image of the declared type, more pixels than `media.max-pixels`, or unreadable: nothing of it is kept.
    public static let unsupportedMedia = ProblemCode(422, "UNSUPPORTED_MEDIA")
    /// Completed before its bytes arrived.
    public static let uploadMissing = ProblemCode(409, "UPLOAD_MISSING")
    /// An upload named to be attached (`pictureMediaId`, `logoMediaId`, `mediaIds`) that cannot be: not the caller's,
    /// not ready, made for another purpose, or attached elsewhere already; `detail` says which.
    public static let mediaNotAttachable = ProblemCode(422, "MEDIA_NOT_ATTACHABLE")

    // Purchases.
    /// A signed transaction or notification that is not the App Store's, or not for this app, environment or player.
    public static let invalidTransaction = ProblemCode(422, "INVALID_TRANSACTION")
    /// A transaction another account claimed first.
    public static let transactionClaimed = ProblemCode(409, "TRANSACTION_CLAIMED")
    /// An action behind a gate (`purchases.gates`) by a player without its entitlement; `productIds` unlock it.
    public static let entitlementRequired = ProblemCode(403, "ENTITLEMENT_REQUIRED")

    // Gateway.
    public static let badUpstream = ProblemCode(502, "BAD_UPSTREAM")
    public static let upstreamUnavailable = ProblemCode(503, "UPSTREAM_UNAVAILABLE")
    public static let upstreamTimeout = ProblemCode(504, "UPSTREAM_TIMEOUT")
    /// A request that is not HTTP/1.1 the gateway can read; the connection is closed after it.
    public static let malformedRequest = ProblemCode(400, "MALFORMED_REQUEST")
    /// A request head that did not arrive whole within `gateway.head.timeout.ms`.
    public static let requestTimeout = ProblemCode(408, "REQUEST_TIMEOUT")
    /// A request line (method, path and query) longer than `gateway.head.line.limit`.
    public static let uriTooLong = ProblemCode(414, "URI_TOO_LONG")
    /// A request head longer than `gateway.head.limit`.
    public static let headerFieldsTooLarge = ProblemCode(431, "REQUEST_HEADER_FIELDS_TOO_LARGE")
}

extension Problem {
    /// A problem of a described kind.
    public init(
        _ kind: ProblemCode, title: String, detail: String? = nil, errors: [FieldError]? = nil, until: Date? = nil,
        availableAt: Date? = nil
    ) {
        self.init(
            title: title, status: kind.status, detail: detail, code: kind.code, errors: errors, until: until, availableAt: availableAt)
    }

    public var kind: ProblemCode { ProblemCode(status, code) }
}
