import Contracts
import Foundation
import SQLKit

/// What other modules' events do to messages, as `ChatEvents` hands them on: a shared ticket posted
/// once, a moderator's removal or a deleted account making tombstones, a reported message withheld.
extension Messages {
    /// Whether `sender` already posted the message with `clientMessageId` in `room`.
    func posted(in room: RoomID, by sender: UserID, clientMessageId: String, on sql: any SQLDatabase) async throws -> Bool {
        try await store.message(in: room, from: sender, clientMessageId: clientMessageId, on: sql) != nil
    }

    /// The message, unless it is gone or already a tombstone.
    func standing(_ id: ChatMessageID, on sql: any SQLDatabase) async throws -> ChatMessage? {
        guard let message = try await store.message(id, on: sql), message.deleted != true else { return nil }
        return message
    }

    /// The messages of `sender` that are not tombstones yet, with their rooms.
    func standing(from sender: UserID, on sql: any SQLDatabase) async throws -> [(id: ChatMessageID, room: RoomID)] {
        try await store.undeleted(from: sender, on: sql)
    }

    /// The message becomes a tombstone, announced to the room's open sockets at `version`.
    func tombstone(_ id: ChatMessageID, in room: RoomID, version: Int, on sql: any SQLDatabase) async throws {
        try await remove(id, at: now(), on: sql)
        try await announce(RoomChange(version: version, kind: .deleted, messageID: id, userID: nil), in: room, on: sql)
    }

    /// Withholds the message (or shows it again), announced as an edit at `version`.
    func withhold(_ id: ChatMessageID, _ hidden: Bool, in room: RoomID, version: Int, on sql: any SQLDatabase) async throws {
        try await store.withhold(id, since: hidden ? now() : nil, on: sql)
        try await announce(RoomChange(version: version, kind: .edited, messageID: id, userID: nil), in: room, on: sql)
    }

    /// Every message of `sender` shown under `name` from now on.
    func renameSender(_ sender: UserID, to name: String, on sql: any SQLDatabase) async throws {
        try await store.rename(sender: sender, to: name, on: sql)
    }
}
