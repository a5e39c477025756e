import Contracts
import Hummingbird
import ServerContracts
import ServiceHTTP

/// `/v1/chat/rooms`, `/v1/chat/direct`, read markers: the rooms I may use.
struct RoomsController: Controller {
    let rooms: Rooms
    let nameFromAuth: @Sendable (UserID) async throws -> String?

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ChatAPI.rooms, use: listRooms)
        router.on(ChatAPI.room, use: room)
        router.on(ChatAPI.read, use: read)
        router.on(ChatAPI.direct, use: direct)
    }

    /// `GET /v1/chat/rooms`
    @Sendable func listRooms(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<ChatRoom> {
        try await rooms.list(for: context.userID, page: try PageRequest(request))
    }

    /// `GET /v1/chat/rooms/{id}`
    @Sendable func room(_ request: Request, _ context: AuthenticatedContext) async throws -> ChatRoom {
        try await rooms.room(try context.parameters.id(RoomID.self), for: context.userID)
    }

    /// `POST /v1/chat/rooms/{id}/read`
    @Sendable func read(_ body: ChatReadMarker, _ request: Request, _ context: AuthenticatedContext) async throws -> ChatRoom {
        try await rooms.markRead(body.seq, in: try context.parameters.id(RoomID.self), by: context.userID)
    }

    /// `POST /v1/chat/direct`
    @Sendable func direct(_ body: DirectRoomRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> ChatRoom {
        try await rooms.direct(context.userID, with: body.userId, knownTo: nameFromAuth)
    }
}

/// `/internal/chat/rooms/...`: whether a player may use a room, for media's chat photos.
struct RoomsInternalController: Controller {
    let rooms: Rooms

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ChatAPI.Internal.roomMember, use: member)
    }

    /// `GET /internal/chat/rooms/{id}/members/{userId}`
    @Sendable func member(_ request: Request, _ context: HuddleRequestContext) async throws -> NoContent {
        try await rooms.requireAccess(to: try context.parameters.id(RoomID.self), by: try context.parameters.id(UserID.self, at: "userId"))
        return NoContent()
    }
}
