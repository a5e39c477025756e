import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/chat/rooms`, `/v1/chat/direct`, read markers: the rooms I may use.
struct RoomsController: Controller {
    let rooms: Rooms
    let nameFromAuth: @Sendable (UserID) async throws -> String?

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ChatAPI.rooms) { request, context in try await rooms.list(for: context.userID, page: try PageRequest(request)) }
        router.on(ChatAPI.room) { _, context in try await rooms.room(try context.parameters.id(RoomID.self), for: context.userID) }
        router.on(ChatAPI.read) { body, _, context in
            try await rooms.markRead(body.seq, in: try context.parameters.id(RoomID.self), by: context.userID)
        }
        router.on(ChatAPI.direct) { body, _, context in
            try await rooms.direct(context.userID, with: body.userId, knownTo: nameFromAuth)
        }
    }
}
