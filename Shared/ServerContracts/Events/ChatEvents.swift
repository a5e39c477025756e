public import Contracts

/// Events chat publishes (`EventEnvelope.type`): photos a message no longer shows, for media to delete.
public enum ChatEvent {
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
