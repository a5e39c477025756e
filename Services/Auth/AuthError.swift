import Contracts
import HTTPTypes
import ServiceKit

/// Problems only auth raises; shared ones (validation, 401, 404) come from `CommonError`.
enum AuthError: ProblemError {
    case emailTaken
    /// Same answer for an unknown email and a wrong password, so accounts cannot be discovered.
    case invalidCredentials
    case tooManyAttempts(retryAfterSeconds: Int)
    case invalidRefreshToken
    case invalidOAuthToken(String)
    case oauthProviderUnavailable
    case unsupportedProvider(String)
    case cannotFollowSelf

    var problem: Problem {
        switch self {
        case .emailTaken:
            Problem(
                title: "Email already registered", status: 409, detail: "An account with this email exists.",
                code: "EMAIL_TAKEN", errors: [.init(field: "email", message: "is already registered")])
        case .invalidCredentials:
            Problem(title: "Invalid credentials", status: 401, detail: "Email or password is wrong.", code: "INVALID_CREDENTIALS")
        case .tooManyAttempts(let seconds):
            Problem(
                title: "Too many attempts", status: 429,
                detail: "Too many failed sign-ins for this account; try again in \(seconds) s.", code: "TOO_MANY_ATTEMPTS")
        case .invalidRefreshToken:
            Problem(
                title: "Invalid refresh token", status: 401, detail: "The refresh token is unknown, used or expired.",
                code: "INVALID_REFRESH_TOKEN")
        case .invalidOAuthToken(let reason):
            Problem(title: "Invalid provider token", status: 401, detail: reason, code: "INVALID_OAUTH_TOKEN")
        case .oauthProviderUnavailable:
            Problem(
                title: "Sign-in provider unavailable", status: 503, detail: "The sign-in provider did not answer; try again shortly.",
                code: "OAUTH_PROVIDER_UNAVAILABLE")
        case .unsupportedProvider(let name):
            Problem(title: "Unknown provider", status: 404, detail: "No sign-in provider named '\(name)'.", code: "UNKNOWN_PROVIDER")
        case .cannotFollowSelf:
            Problem(
                title: "Cannot follow yourself", status: 422, detail: "A player cannot follow themselves.", code: "CANNOT_FOLLOW_SELF")
        }
    }

    var headers: HTTPFields {
        if case .tooManyAttempts(let seconds) = self { return [.retryAfter: String(seconds)] }
        return [:]
    }
}
