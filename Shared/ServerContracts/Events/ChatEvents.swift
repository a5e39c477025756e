public import Contracts

/// Events chat publishes (`EventEnvelope.type`): messages sent, for notify to push to the members
/// not in the room now; photos a message no longer shows, for media to delete.
public enum ChatEvent {
    /// A message was sent. Who is pushed is decided when notify pushes it (`ChatAPI.Internal.messagePush`):
    /// who is in the room then, and who muted it, blocked the sender or is named.
    public static let messagePosted = EventType<MessagePosted>("chat.message.posted", owner: .chat)

    public struct MessagePosted: Codable, Equatable, Sendable {
        public var messageId: ChatMessageID
        public var roomId: RoomID
        public var senderId: UserID
        /// The text may name players (`@Name`): notify asks chat whom at once, however the room is paced.
        /// Events written before it was told are taken as naming someone.
        public var namesPlayers: Bool

        public init(messageId: ChatMessageID, roomId: RoomID, senderId: UserID, namesPlayers: Bool) {
            self.messageId = messageId
            self.roomId = roomId
            self.senderId = senderId
            self.namesPlayers = namesPlayers
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            messageId = try container.decode(ChatMessageID.self, forKey: .messageId)
            roomId = try container.decode(RoomID.self, forKey: .roomId)
            senderId = try container.decode(UserID.self, forKey: .senderId)
            namesPlayers = try container.decodeIfPresent(Bool.self, forKey: .namesPlayers) ?? true
        }
    }

    /// A message with photos was deleted (by its sender, a moderator, or with the sender's account):
    /// media deletes the uploads attached to it, with their objects.
    public static let photosRemoved = EventType<PhotosRemoved>("chat.message.photosRemoved", owner: .chat)

    public struct PhotosRemoved: Codable, Equatable, Sendable {
        public var messageId: ChatMessageID
        /// What the photos were attached to, as chat attached them.
        public var subject: MediaSubject
        public var mediaIds: [MediaID]

        public init(messageId: ChatMessageID, subject: MediaSubject, mediaIds: [MediaID]) {
            self.messageId = messageId
            self.subject = subject
            self.mediaIds = mediaIds
        }
    }
}
