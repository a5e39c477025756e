import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/betting/tickets...`: placing a ticket (its Idempotency-Key is required) and my tickets.
struct TicketsController: Controller {
    let tickets: Tickets

    func register(on router: Router<HuddleRequestContext>) {
        router.on(keyed: BettingAPI.placeTicket) { body, key, context in try await tickets.place(body, by: context.userID, key: key) }
        router.on(BettingAPI.tickets) { request, context in
            try await tickets.mine(context.userID, status: try request.query(BettingAPI.ticketStatus), page: try PageRequest(request))
        }
        router.on(BettingAPI.ticket) { _, context in
            try await tickets.ticket(try context.parameters.id(TicketID.self), viewer: context.userID)
        }
    }
}
