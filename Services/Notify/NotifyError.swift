import Contracts
import Foundation
import Hummingbird
import ServiceHTTP

/// Problems only notify raises; shared ones (validation, 401, 404) come from `CommonError`. A push
/// token is checked by what its platform issues, which only notify knows.
enum NotifyError: ProblemError {
    case notAPNsToken
    case notFCMToken
    /// `environment` or `topic` sent for a device that is not an APNs one.
    case apnsOnly(field: String)
    case noSuchDevice

    var problem: Problem {
        switch self {
        case .notAPNsToken: CommonError.invalid("token", "must be an APNs device token: 64 to 200 hex digits").problem
        case .notFCMToken:
            CommonError.invalid(
                "token",
                "must be an FCM registration token: \(NotifyLimits.fcmTokenLength.lowerBound) to \(NotifyLimits.fcmTokenLength.upperBound) letters, digits and _ : . -"
            ).problem
        case .apnsOnly(let field): CommonError.invalid(field, "is for apns devices only").problem
        case .noSuchDevice: CommonError.notFound("No device of yours with this token.").problem
        }
    }
}
