import Contracts
import Hummingbird
import ServerContracts
import ServiceHTTP

/// `/v1/chat/rooms`, `/v1/chat/direct`, read markers: the rooms I may use.
struct RoomsController: Controller {
    let rooms: Rooms
    let nameFromAuth: @Sendable (UserID) async throws -> String?

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ChatAPI.rooms, conditional: listRooms)
        router.on(ChatAPI.room, conditional: room)
        router.on(ChatAPI.follow, use: follow)
        router.on(ChatAPI.unfollow, use: unfollow)
        router.on(ChatAPI.mute, use: mute)
        router.on(ChatAPI.unmute, use: unmute)
        router.on(ChatAPI.read, use: read)
        router.on(ChatAPI.direct, use: direct)
    }

    /// `GET /v1/chat/rooms`
    @Sendable func listRooms(_ request: Request, _ context: AuthenticatedContext) async throws -> Versioned<Page<ChatRoom>> {
        let page = try await rooms.list(for: context.userID, kind: try request.query(ChatAPI.roomKind), page: try PageRequest(request))
        return Versioned(page, parts: try await rooms.tagParts(of: page.items) + [page.nextCursor ?? ""])
    }

    /// `PUT /v1/chat/rooms/{id}/mute`
    @Sendable func mute(_ body: MuteRoomRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> ChatRoom {
        try await rooms.mute(try context.parameters.id(RoomID.self), by: context.userID, until: body.until)
    }

    /// `DELETE /v1/chat/rooms/{id}/mute`
    @Sendable func unmute(_ request: Request, _ context: AuthenticatedContext) async throws -> ChatRoom {
        try await rooms.unmute(try context.parameters.id(RoomID.self), by: context.userID)
    }

    /// `GET /v1/chat/rooms/{id}`
    @Sendable func room(_ request: Request, _ context: AuthenticatedContext) async throws -> Versioned<ChatRoom> {
        let room = try await rooms.room(try context.parameters.id(RoomID.self), for: context.userID)
        return Versioned(room, parts: try await rooms.tagParts(of: [room]))
    }

    /// `PUT /v1/chat/rooms/{id}/follow`
    @Sendable func follow(_ request: Request, _ context: AuthenticatedContext) async throws -> ChatRoom {
        try await rooms.follow(try context.parameters.id(RoomID.self), by: context.userID)
    }

    /// `DELETE /v1/chat/rooms/{id}/follow`
    @Sendable func unfollow(_ request: Request, _ context: AuthenticatedContext) async throws -> ChatRoom {
        try await rooms.unfollow(try context.parameters.id(RoomID.self), by: context.userID)
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

/// `/internal/chat/...`: whether a player may use a room, for media's chat photos; whom a message is
/// pushed to, for notify.
struct RoomsInternalController: Controller {
    let rooms: Rooms
    let pushes: MessagePushes

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ChatAPI.Internal.roomMember, use: member)
        router.on(ChatAPI.Internal.messagePush, use: push)
        router.on(ChatAPI.Internal.messagePushes, use: pushes)
    }

    /// `GET /internal/chat/messages/{id}/push`
    @Sendable func push(_ request: Request, _ context: HuddleRequestContext) async throws -> ChatMessagePush {
        try await pushes.push(of: try context.parameters.id(ChatMessageID.self))
    }

    /// `POST /internal/chat/message-pushes`
    @Sendable func pushes(_ body: MessagePushesRequest, _ request: Request, _ context: HuddleRequestContext) async throws
        -> MessagePushesResponse
    {
        try await pushes.pushes(of: body.ids)
    }

    /// `GET /internal/chat/rooms/{id}/members/{userId}`
    @Sendable func member(_ request: Request, _ context: HuddleRequestContext) async throws -> NoContent {
        try await rooms.requireAccess(to: try context.parameters.id(RoomID.self), by: try context.parameters.id(UserID.self, at: "userId"))
        return NoContent()
    }
}
