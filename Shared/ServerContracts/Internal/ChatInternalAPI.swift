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
        public static let all: [APIOperation] =
            [
                block.operation, roomMember.operation, messagePush.operation,
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
