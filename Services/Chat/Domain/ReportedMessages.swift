import Contracts
import Foundation
import ServerContracts
import ServiceHTTP
import ServiceStore

extension Messages {
    /// A message as `viewer` sees it, with up to `around` messages either side, for a report; 404 when
    /// the viewer may not read its room, or it is deleted (or from someone the viewer blocked).
    func reported(_ id: ChatMessageID, viewer: UserID, around: Int = 5) async throws -> SubjectSnapshot {
        try await database.read { sql in
            guard let message = try await store.message(id, on: sql), message.deleted != true else {
                throw CommonError.notFound("No message with id \(id).")
            }
            _ = try await rooms.accessible(message.roomId, by: viewer, on: sql)
            let before = try await store.history(of: message.roomId, .before(message.seq), limit: around, viewer: viewer, on: sql)
            let after = try await store.history(of: message.roomId, .after(message.seq), limit: around, viewer: viewer, on: sql)
            guard try await store.history(of: message.roomId, .after(message.seq - 1), limit: 1, viewer: viewer, on: sql).first?.id == id
            else { throw CommonError.notFound("No message with id \(id).") }
            return SubjectSnapshot(content: Self.content(message), context: (before.reversed() + after).map(Self.content))
        }
    }

    static func content(_ message: ChatMessage) -> SubjectContent {
        SubjectContent(
            type: .message, id: SubjectID(message.id.uuid), ownerId: message.senderId, ownerName: message.senderName,
            text: message.deleted == true ? "" : message.text, at: message.sentAt, attachments: message.attachments)
    }
}
