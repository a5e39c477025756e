import Contracts
import Hummingbird
import ServiceKit

/// Betting's path ids, each with its one 404 wording.
extension Parameters {
    func fixtureID(_ name: String = "id") throws -> MatchID {
        try id(name, as: MatchID.self, missing: "No fixture with id \(get(name) ?? "").")
    }
    func ticketID() throws -> TicketID { try id(as: TicketID.self, missing: "No ticket with id \(get("id") ?? "").") }
}
