/// Chat's operations: my rooms with their unread counts, a room's history by seq, sending, editing
/// and deleting my messages, read markers, direct rooms, blocks, and the live socket.
public enum ChatAPI {
    public static let rooms = Endpoint<SignedIn, NoBody, Page<ChatRoom>>(
        .get, "/v1/chat/rooms", owner: .chat,
        summary: "Rooms I chose — the global room, my teams', my games', my direct rooms and the match rooms I opened — most recent "
            + "activity first, each with unreadCount, lastSeq and the last message; kind=match lists live or upcoming matches' rooms "
            + "to choose from, any other kind narrows my rooms to it",
        query: [roomKind] + Query.paging, traits: .conditional)
    public static let roomKind = Query.choice("kind", RoomKind.self, description: "only rooms of this kind")
    public static let room = Endpoint<SignedIn, NoBody, ChatRoom>(
        .get, "/v1/chat/rooms/{id}", owner: .chat,
        summary: "One room I may use (404 for any other)", traits: .conditional)
    public static let follow = Endpoint<SignedIn, NoBody, ChatRoom>(
        .put, "/v1/chat/rooms/{id}/follow", owner: .chat,
        summary: "Put a match's room in my rooms, as subscribing to it on the live socket does (idempotent); any other room I may "
            + "use is in them already")
    public static let unfollow = Endpoint<SignedIn, NoBody, ChatRoom>(
        .delete, "/v1/chat/rooms/{id}/follow", owner: .chat,
        summary: "Take a match's room out of my rooms (idempotent); 403 for any other room, which is mine while I am in its team "
            + "or game or talk with its player",
        problems: [.forbidden])
    public static let mute = Endpoint<SignedIn, MuteRoomRequest, ChatRoom>(
        .put, "/v1/chat/rooms/{id}/mute", owner: .chat,
        summary: "Mute a room until a time (for good without one): its messages are no longer pushed to me, except those naming me")
    public static let unmute = Endpoint<SignedIn, NoBody, ChatRoom>(
        .delete, "/v1/chat/rooms/{id}/mute", owner: .chat, summary: "Unmute a room: its messages are pushed to me again")
    public static let messages = Endpoint<SignedIn, NoBody, Page<ChatMessage>>(
        .get, "/v1/chat/rooms/{id}/messages", owner: .chat,
        summary: "History by seq: newest first, or with after, what came after it oldest first (what a reconnecting client "
            + "missed); before pages back. Messages of players I blocked are left out; deleted ones keep their seq",
        query: [messagesBefore, messagesAfter, Query.limit])
    public static let messagesBefore = Query.integer("before", ChatMessageLimits.seqRange, description: "only messages with a lower seq")
    public static let messagesAfter = Query.integer(
        "after", ChatMessageLimits.seqRange, description: "only messages with a higher seq, oldest first")
    public static let send = Endpoint<SignedIn, SendChatMessage, ChatMessage>(
        .post, "/v1/chat/rooms/{id}/messages", owner: .chat,
        summary: "Send a message: text (1–2,000 characters, trimmed), up to four photos (mediaIds: my completed chatPhoto uploads), "
            + "or both; the same clientMessageId from me answers the message sent first (200). Over the flood limit: 429 with Retry-After",
        status: 201, problems: [.floodLimited, .blocked, .mediaNotAttachable, .dependencyUnavailable],
        otherAnswers: [200: ChatMessage.self])
    public static let edit = Endpoint<SignedIn, EditChatMessage, ChatMessage>(
        .patch, "/v1/chat/rooms/{id}/messages/{messageId}", owner: .chat,
        summary: "Edit my own message (403 for anyone else's); the room sees the change live and history shows editedAt",
        problems: [.forbidden])
    public static let delete = Endpoint<SignedIn, NoBody, NoContent>(
        .delete, "/v1/chat/rooms/{id}/messages/{messageId}", owner: .chat,
        summary: "Delete my own message (403 for anyone else's); it keeps its seq as a deleted placeholder", problems: [.forbidden])
    public static let read = Endpoint<SignedIn, ChatReadMarker, ChatRoom>(
        .post, "/v1/chat/rooms/{id}/read", owner: .chat,
        summary: "Move my read marker to seq (never backwards, never past the last message); answers the room")
    public static let direct = Endpoint<SignedIn, DirectRoomRequest, ChatRoom>(
        .post, "/v1/chat/direct", owner: .chat,
        summary: "The direct room with a player, created once per pair; 403 BLOCKED when either blocked the other",
        problems: [.blocked, .cannotMessageSelf])
    public static let blocks = Endpoint<SignedIn, NoBody, Page<ChatBlock>>(
        .get, "/v1/chat/blocks", owner: .chat, summary: "Players I blocked, most recent first", query: Query.paging)
    public static let block = Endpoint<SignedIn, NoBody, ChatBlock>(
        .put, "/v1/chat/blocks/{userId}", owner: .chat,
        summary: "Block a player: their messages are hidden from me, and neither of us can open or write our direct room",
        problems: [.cannotMessageSelf])
    public static let unblock = Endpoint<SignedIn, NoBody, NoContent>(
        .delete, "/v1/chat/blocks/{userId}", owner: .chat, summary: "Unblock a player")
    public static let live = Endpoint<SignedIn, NoBody, ChatServerFrame>(
        .get, "/v1/chat/live", owner: .chat,
        summary: "WebSocket, one per device for all my rooms: subscribe (with afterSeq, the messages after it come first, oldest "
            + "first), unsubscribe, send; then what happens in the rooms followed",
        status: 101, problems: [.webSocketRequired], traits: .webSocket, deviceSends: ChatClientFrame.self)

    public static let all: [APIOperation] = [
        rooms.operation, room.operation, follow.operation, unfollow.operation, mute.operation, unmute.operation, messages.operation,
        send.operation, edit.operation,
        delete.operation, read.operation, direct.operation, blocks.operation, block.operation, unblock.operation, live.operation,
    ]
}

/// Limits on chat's fields, stated by the document and checked by the service.
public enum ChatMessageLimits {
    public static let text = TextRule(1...2000)
    /// A device's id for a message: 1–100 characters of letters, digits, `-` and `_`.
    public static let clientMessageId = JSONSchema.text(1...100).pattern(JSONSchema.whole("[A-Za-z0-9_-]*"))
    public static let seqRange = 0...Int(Int32.max)
    public static let seq = JSONSchema.integer(seqRange)
    /// A message's photos: one to four.
    public static let photoCount = 1...4
    public static let photos = JSONSchema().items(photoCount)
}

extension ChatClientFrame: FieldConstraints {
    public static var constraints: [String: JSONSchema] {
        [
            "afterSeq": ChatMessageLimits.seq, "text": ChatMessageLimits.text.schema, "mediaIds": ChatMessageLimits.photos,
            "clientMessageId": ChatMessageLimits.clientMessageId,
        ]
    }
}

extension SendChatMessage: FieldConstraints {
    public static var constraints: [String: JSONSchema] {
        ["text": ChatMessageLimits.text.schema, "mediaIds": ChatMessageLimits.photos, "clientMessageId": ChatMessageLimits.clientMessageId]
    }
}

extension EditChatMessage: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["text": ChatMessageLimits.text.schema] }
}

extension ChatReadMarker: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["seq": ChatMessageLimits.seq] }
}
