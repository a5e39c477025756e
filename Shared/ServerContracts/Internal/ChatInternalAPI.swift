public import Contracts

extension ChatAPI {
    public enum Internal {
        /// A report made with `block: true`: the reporter blocks the player, as `PUT /v1/chat/blocks/{userId}` does.
        public static let block = Endpoint<InternalCaller, NoBody, ChatBlock>(
            .put, "/internal/chat/blocks/{id}/{userId}", owner: .chat, summary: "Player id blocks player userId (idempotent)",
            problems: [.cannotMessageSelf])
        /// Whether a player may use a room (its photos are read by its members only): 204, or 404.
        public static let roomMember = Endpoint<InternalCaller, NoBody, NoContent>(
            .get, "/internal/chat/rooms/{id}/members/{userId}", owner: .chat,
            summary: "204 when the player may use the room, 404 otherwise",
            status: 204, problems: [.notFound])
        /// A sent message as notify pushes it, with whom to push it to now; 404 once it was deleted or withheld.
        public static let messagePush = Endpoint<InternalCaller, NoBody, ChatMessagePush>(
            .get, "/internal/chat/messages/{id}/push", owner: .chat,
            summary: "The message, its room and the players to push it to: members with no socket on the room who neither muted it "
                + "nor blocked the sender, and the players it names", problems: [.notFound])
        /// `messagePush` for several messages in one read: those of the rooms whose held pushes fall due
        /// together. Messages deleted or withheld are left out.
        public static let messagePushes = Endpoint<InternalCaller, MessagePushesRequest, MessagePushesResponse>(
            .post, "/internal/chat/message-pushes", owner: .chat,
            summary: "What messagePush answers, for up to 50 messages at once; messages deleted or withheld are left out")
        public static let all: [APIOperation] =
            [
                block.operation, roomMember.operation, messagePush.operation, messagePushes.operation,
                EventsAPI.deliver(to: .chat).operation, EventsAPI.applied(by: .chat).operation, PersonalDataAPI.export(of: .chat).operation,
                ModerationAPI.Internal.subject(at: .chat).operation,
            ] + EventsAPI.publisherOperations(of: .chat)
    }
}

/// A message to push, and to whom (`ChatAPI.Internal.messagePush`).
public struct ChatMessagePush: Codable, Equatable, Sendable {
    public struct Recipient: Codable, Equatable, Sendable {
        public var userId: UserID
        /// The message names them (`@Name`): pushed as a mention, even from a room they muted.
        public var mentioned: Bool
        /// They are pushed the room's every message (a member who did not mute it), not only those naming
        /// them: the ones a room's held messages are pushed to.
        public var everyMessage: Bool

        public init(userId: UserID, mentioned: Bool, everyMessage: Bool) {
            self.userId = userId
            self.mentioned = mentioned
            self.everyMessage = everyMessage
        }

        /// A chat that does not tell yet (during an upgrade) is taken as pushing everyone it names every message.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            userId = try container.decode(UserID.self, forKey: .userId)
            mentioned = try container.decode(Bool.self, forKey: .mentioned)
            everyMessage = try container.decodeIfPresent(Bool.self, forKey: .everyMessage) ?? true
        }
    }

    public var messageId: ChatMessageID
    public var roomId: RoomID
    public var roomKind: RoomKind
    /// The room's name; for a direct room, the sender's.
    public var roomName: String
    public var senderId: UserID
    public var senderName: String
    public var text: String
    public var photoCount: Int
    public var recipients: [Recipient]

    public init(
        messageId: ChatMessageID, roomId: RoomID, roomKind: RoomKind, roomName: String, senderId: UserID, senderName: String,
        text: String, photoCount: Int, recipients: [Recipient]
    ) {
        self.messageId = messageId
        self.roomId = roomId
        self.roomKind = roomKind
        self.roomName = roomName
        self.senderId = senderId
        self.senderName = senderName
        self.text = text
        self.photoCount = photoCount
        self.recipients = recipients
    }
}

/// The messages `ChatAPI.Internal.messagePushes` is asked about.
public struct MessagePushesRequest: Codable, Equatable, Sendable {
    /// A 1,000-member room's answer is some 40 KB: fifty keep one answer under a few megabytes.
    public static let maxIDs = 50
    public var ids: [ChatMessageID]
    public init(ids: [ChatMessageID]) { self.ids = ids }
}

/// What `ChatAPI.Internal.messagePushes` answers: the pushes of the messages still shown, in the order asked.
public struct MessagePushesResponse: Codable, Equatable, Sendable {
    public var items: [ChatMessagePush]
    public init(items: [ChatMessagePush]) { self.items = items }
}

/// On the wire the recipients are two lists of ids, those pushed every message and those the
/// message names, rather than an object for each: encoding 900 recipients' objects was most of chat's
/// answer for a 1,000-member room (2.8 ms of its CPU of 4–5, perf), on the core its sends share, ten
/// rooms at a time when their held pushes fall due together.
extension ChatMessagePush {
    private enum CodingKeys: String, CodingKey {
        case messageId, roomId, roomKind, roomName, senderId, senderName, text, photoCount
        case everyMessage, mentioned
        /// The form before the two lists, one object a recipient: read from a chat not upgraded yet (notify
        /// is upgraded first: one from before reads only this form).
        case recipients
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        messageId = try container.decode(ChatMessageID.self, forKey: .messageId)
        roomId = try container.decode(RoomID.self, forKey: .roomId)
        roomKind = try container.decode(RoomKind.self, forKey: .roomKind)
        roomName = try container.decode(String.self, forKey: .roomName)
        senderId = try container.decode(UserID.self, forKey: .senderId)
        senderName = try container.decode(String.self, forKey: .senderName)
        text = try container.decode(String.self, forKey: .text)
        photoCount = try container.decode(Int.self, forKey: .photoCount)
        if let recipients = try container.decodeIfPresent([Recipient].self, forKey: .recipients) {
            self.recipients = recipients
        } else {
            recipients = Self.recipients(
                everyMessage: try container.decode([UserID].self, forKey: .everyMessage),
                mentioned: try container.decode([UserID].self, forKey: .mentioned))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(messageId, forKey: .messageId)
        try container.encode(roomId, forKey: .roomId)
        try container.encode(roomKind, forKey: .roomKind)
        try container.encode(roomName, forKey: .roomName)
        try container.encode(senderId, forKey: .senderId)
        try container.encode(senderName, forKey: .senderName)
        try container.encode(text, forKey: .text)
        try container.encode(photoCount, forKey: .photoCount)
        try container.encode(recipients.filter(\.everyMessage).map(\.userId), forKey: .everyMessage)
        try container.encode(recipients.filter(\.mentioned).map(\.userId), forKey: .mentioned)
    }

    /// Each player of either list once: those pushed every message in chat's order, then those only named.
    /// Order means nothing to notify, so the ids are not sorted again.
    private static func recipients(everyMessage: [UserID], mentioned: [UserID]) -> [Recipient] {
        let named = Set(mentioned)
        let pushedEvery = everyMessage.map { Recipient(userId: $0, mentioned: named.contains($0), everyMessage: true) }
        guard !named.isEmpty else { return pushedEvery }
        let every = Set(everyMessage)
        return pushedEvery + mentioned.filter { !every.contains($0) }.map { Recipient(userId: $0, mentioned: true, everyMessage: false) }
    }
}
