import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/betting/tickets...`: placing a ticket (its Idempotency-Key is required) and my tickets.
struct TicketsController: Controller {
    let tickets: Tickets

    func register(on router: Router<HuddleRequestContext>) {
        router.on(keyed: BettingAPI.placeTicket, use: placeTicket)
        router.on(BettingAPI.tickets, use: listTickets)
        router.on(BettingAPI.ticket, use: ticket)
    }

    /// `POST /v1/betting/tickets`
    @Sendable func placeTicket(_ body: PlaceTicket, _ key: IdempotencyKey, _ context: AuthenticatedContext) async throws -> Ticket {
        try await tickets.place(body, by: context.userID, key: key)
    }

    /// `GET /v1/betting/tickets`
    @Sendable func listTickets(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<Ticket> {
        try await tickets.mine(context.userID, status: try request.query(BettingAPI.ticketStatus), page: try PageRequest(request))
    }

    /// `GET /v1/betting/tickets/{id}`
    @Sendable func ticket(_ request: Request, _ context: AuthenticatedContext) async throws -> Ticket {
        try await tickets.ticket(try context.parameters.id(TicketID.self), viewer: context.userID)
    }
}
