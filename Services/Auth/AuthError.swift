import Contracts
import Foundation
import HTTPTypes
import ServiceHTTP

/// Problems only auth raises; shared ones (validation, 401, 404) come from `CommonError`.
enum AuthError: ProblemError {
    case emailTaken
    /// Same answer for an unknown email and a wrong password, so accounts cannot be discovered.
    case invalidCredentials
    case tooManyAttempts(retryAfterSeconds: Int)
    case invalidRefreshToken
    case invalidOAuthToken(String)
    /// A Sign in with Apple identity token that does not check out.
    case invalidProviderToken(String)
    /// Deleting an account needs proof of a sign-in just made.
    case reauthenticationRequired(String)
    case oauthProviderUnavailable
    case unsupportedProvider(String)
    case cannotFollowSelf
    /// A mailed token that is unknown, used, replaced or expired.
    case invalidToken
    /// A sign-in of an account with a second factor on, without a right code.
    case secondFactorRequired(String)
    /// A code that is not the authenticator's current one (confirming or turning off the factor).
    case wrongSecondFactorCode
    case secondFactorOn
    case secondFactorNotPending
    /// A moderator suspended the account until `until`, or banned it (nil).
    case accountSuspended(until: Date?)

    var problem: Problem {
        switch self {
        case .emailTaken:
            Problem(
                .emailTaken,
                title: "Email already registered", detail: localized("An account with this email exists."),
                errors: [.invalid("email", "is already registered")])
        case .invalidCredentials:
            Problem(
                .invalidCredentials, title: "Invalid credentials", detail: localized("Email or password is wrong."))
        case .tooManyAttempts(let seconds):
            Problem(
                .tooManyAttempts,
                title: "Too many attempts", detail: localized("Too many failed sign-ins for this account; try again in \(seconds) s."))
        case .invalidRefreshToken:
            Problem(
                .invalidRefreshToken,
                title: "Invalid refresh token", detail: localized("The refresh token is unknown, used or expired."))
        case .invalidOAuthToken(let reason):
            Problem(
                .invalidOAuthToken, title: "Invalid provider token", detail: reason)
        case .invalidProviderToken(let reason):
            Problem(.invalidProviderToken, title: "Invalid identity token", detail: reason)
        case .reauthenticationRequired(let reason):
            Problem(.reauthenticationRequired, title: "Sign in again to delete the account", detail: reason)
        case .oauthProviderUnavailable:
            Problem(
                .oauthProviderUnavailable,
                title: "Sign-in provider unavailable", detail: localized("The sign-in provider did not answer; try again shortly."))
        case .unsupportedProvider(let name):
            Problem(
                .unknownProvider, title: "Unknown provider", detail: localized("No sign-in provider named '\(name)'."))
        case .secondFactorRequired(let reason):
            Problem(.secondFactorRequired, title: "Second factor required", detail: reason)
        case .wrongSecondFactorCode:
            Problem(
                .validationFailed, title: "Invalid code", detail: localized("The code is not the authenticator's current one."),
                errors: [.invalid("code", "is not the current code")])
        case .secondFactorOn:
            Problem(
                .secondFactorState, title: "Second factor on", detail: localized("Turn the second factor off before setting up another."))
        case .secondFactorNotPending:
            Problem(.secondFactorState, title: "No second factor to confirm", detail: localized("Set a second factor up first."))
        case .invalidToken:
            Problem(
                .invalidToken, title: "Invalid token",
                detail: localized("The token is unknown, already used, replaced by a later one or expired."))
        case .cannotFollowSelf:
            Problem(
                .cannotFollowSelf,
                title: "Cannot follow yourself", detail: localized("A player cannot follow themselves."))
        case .accountSuspended(let until?):
            Problem(
                .accountSuspended, title: "Account suspended",
                detail: localized("A moderator suspended this account until \(HuddleJSON.formatRFC3339(until))."), until: until)
        case .accountSuspended(nil):
            Problem(.accountSuspended, title: "Account banned", detail: localized("A moderator banned this account."))
        }
    }

    var headers: HTTPFields {
        if case .tooManyAttempts(let seconds) = self { return LoginThrottle.policy.refusal(retryAfter: seconds) }
        return [:]
    }
}
