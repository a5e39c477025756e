import Hummingbird
import ServiceKit

extension Request {
    /// Lists of games and rounds are the caller's own (`?scope=mine`); finding others' is search's job.
    func requireMineScope() throws {
        guard uri.queryParameters["scope"].map(String.init) == "mine" else {
            throw CommonError.invalid("scope", "must be 'mine'; search finds other games")
        }
    }
}
