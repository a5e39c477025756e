import Contracts
import ServerContracts
import ServiceClients
import ServiceHTTP

/// A message's photos: the sender's own completed `chatPhoto` uploads, attached through media to the
/// message (its room and the sender's `clientMessageId`, so a retried send attaches them again to
/// the same message), and readable by the room's members only.
struct MessagePhotos: Sendable {
    let media: MediaClient

    /// What the message is, for media: its room and the sender's id for it.
    static func subject(_ room: RoomID, _ clientMessageId: String) -> MediaSubject {
        MediaSubject(.room, "\(room)/\(clientMessageId)")
    }

    /// The photos a send asks for: one to four, each once; a message without text has at least one.
    static func requested(_ request: SendChatMessage) throws -> [MediaID] {
        guard let ids = request.mediaIds else {
            guard request.text != nil else { throw CommonError.invalid("text", "give a text, photos (mediaIds), or both") }
            return []
        }
        guard ChatMessageLimits.photoCount.contains(ids.count) else {
            throw CommonError.invalid("mediaIds", "must list 1 to \(ChatMessageLimits.photoCount.upperBound) photos")
        }
        guard Set(ids).count == ids.count else { throw CommonError.invalid("mediaIds", "lists a photo twice") }
        return ids
    }

    /// The uploads attached to the message, in the order given; nil for a message without photos.
    func attach(_ ids: [MediaID], by sender: UserID, to room: RoomID, clientMessageId: String) async throws -> [Media]? {
        guard !ids.isEmpty else { return nil }
        var attached: [Media] = []
        for (index, id) in ids.enumerated() {
            attached.append(
                try await media.attach(
                    id, by: sender, as: .chatPhoto, to: Self.subject(room, clientMessageId), field: "mediaIds[\(index)]"))
        }
        return attached
    }
}
