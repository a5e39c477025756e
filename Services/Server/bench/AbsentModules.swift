import Contracts
import Foundation
import ServiceHTTP

/// Addresses for the modules a benchmark calls but does not run. A stack refuses to start without an
/// address for every module its modules call (`Wiring.calls`); what those calls serve (a deleted
/// player's erasure, rebuilding search's index) is not what a benchmark measures, so they get an
/// address nothing answers on.
enum AbsentModules {
    static func addresses(besides running: [ServiceModule]) -> [String: String] {
        let called = Set(running.flatMap { Wiring.calls[$0] ?? [] }).subtracting(running)
        return Dictionary(uniqueKeysWithValues: called.map { ("\($0.rawValue).url", "http://127.0.0.1:9") })
    }
}

extension Dictionary where Key == String, Value == String {
    /// Settings as a module's executable reads them from its environment: `auth.db.url` is `AUTH_DB_URL`.
    var environmentVariables: [String: String] {
        Dictionary(uniqueKeysWithValues: map { ($0.key.uppercased().replacingOccurrences(of: ".", with: "_"), $0.value) })
    }
}
