import Contracts
import HTTPTypes
import Hummingbird
import ServiceKit

/// `/v1/betting/tickets...`: placing a ticket (its Idempotency-Key is required) and my tickets.
struct TicketsController: Controller {
    let tickets: Tickets

    func register(on router: Router<HuddleRequestContext>) {
        router.on(BettingAPI.placeTicket) { body, request, context in
            guard let key = request.headers[values: HTTPField.Name(Routes.Header.idempotencyKey)!].first else {
                throw BettingError.idempotencyKeyRequired
            }
            return try await tickets.place(body, by: context.userID, key: key)
        }
        router.on(BettingAPI.tickets) { request, context in
            try await tickets.mine(
                context.userID, status: try request.query("status", as: TicketStatus.self), page: try PageRequest(request))
        }
        router.on(BettingAPI.ticket) { _, context in try await tickets.ticket(try context.parameters.ticketID(), viewer: context.userID) }
    }
}
