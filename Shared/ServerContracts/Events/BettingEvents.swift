public import Contracts
import Foundation

/// Events betting publishes (`EventEnvelope.type`) about tickets, for notify and chat. Each carries
/// the ticket as its owner sees it.
public enum BettingEvent {
    /// A ticket was placed: notify files its receipt in the owner's inbox, and chat posts a shared
    /// one in the global room.
    public static let ticketPlaced = EventType<TicketChanged>("betting.ticket.placed", owner: .betting)
    /// A ticket was settled (won, lost or void): notify tells its owner.
    public static let ticketSettled = EventType<TicketChanged>("betting.ticket.settled", owner: .betting)

    public struct TicketChanged: Codable, Equatable, Sendable {
        public var ownerId: UserID
        public var ticket: Ticket
        /// The owner asked for it to be shown in the global chat (`PlaceTicket.share`).
        public var shared: Bool

        public init(ownerId: UserID, ticket: Ticket, shared: Bool) {
            self.ownerId = ownerId
            self.ticket = ticket
            self.shared = shared
        }
    }
}

/// How a ticket reads in a sentence, the same in the inbox and the chat. Pure.
public enum TicketWording {
    /// Minor units as the amount they make in `currency`, with two decimals: `1234` EUR is "12.34 EUR".
    public static func amount(_ minor: Int, _ currency: String) -> String {
        let sign = minor < 0 ? "-" : ""
        let units = abs(minor)
        let cents = units % 100
        return "\(sign)\(units / 100).\(cents < 10 ? "0" : "")\(cents) \(currency)"
    }

    /// Each leg as "Home v Away: pick @ odds", joined with "; ".
    public static func legs(_ ticket: Ticket) -> String {
        ticket.selections.map { "\($0.home) v \($0.away): \($0.pick.rawValue) @ \($0.odds)" }.joined(separator: "; ")
    }

    /// "2 selections at 3.400, stake 1.00 EUR, pays 3.40 EUR"
    public static func summary(_ ticket: Ticket) -> String {
        let count = ticket.selections.count
        return "\(count) selection\(count == 1 ? "" : "s") at \(ticket.totalOdds), stake \(amount(ticket.stake, ticket.currency)), "
            + "pays \(amount(ticket.potentialWinnings, ticket.currency))"
    }
}
