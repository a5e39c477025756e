import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceFeatures
import ServiceHTTP
import ServiceStore

/// Sending, editing and deleting messages, and reading a room's history. Every change takes the
/// room's next version, is logged in `room_changes` and is announced with its commit on the
/// chat-rooms channel, so every socket of every instance receives it; a message sent is also
/// published, in the same transaction, for notify to push it.
struct Messages: Sendable {
    let database: Database
    let rooms: Rooms
    let store: any MessageStore
    let roomStore: any RoomStore
    let people: any PeopleStore
    let flood: FloodControl
    /// Masks filtered words in what players write.
    let filter: ContentFilter
    /// A player's display name from auth, for a sender chat has not heard of yet.
    let nameFromAuth: @Sendable (UserID) async throws -> String?
    /// Attaches the sender's uploads to the message they are sent with.
    let photos: MessagePhotos
    let now: @Sendable () -> Date
    var outbox: Outbox { Outbox(now: now) }

    /// Sends `request` to the room; answers the message and whether this call created it (a repeat of
    /// a `clientMessageId` answers the message sent first, and is not counted by flood control).
    func send(_ request: SendChatMessage, to room: RoomID, by user: UserID) async throws -> (ChatMessage, created: Bool) {
        let text = try request.text.map(self.text) ?? ""
        let photoIDs = try MessagePhotos.requested(request)
        if let earlier = try await database.read({ sql in
            try await store.message(in: room, from: user, clientMessageId: request.clientMessageId, on: sql)
        }) {
            return (earlier, false)
        }
        if let wait = try await flood.take(user, room) { throw ChatError.floodLimited(retryAfterSeconds: wait, policy: flood.policy) }
        let name = try await senderName(user)
        // Photos are attached to the room before the message is written: only for someone who may use it.
        if !photoIDs.isEmpty { try await rooms.requireAccess(to: room, by: user) }
        let attachments = try await photos.attach(photoIDs, by: user, to: room, clientMessageId: request.clientMessageId)
        do {
            return try await database.transaction { sql in
                try await refuseIfBlocked(try await rooms.accessible(room, by: user, on: sql), user, on: sql)
                // A concurrent send of the same clientMessageId committed first: undo the seq taken.
                guard
                    let message = try await post(
                        text, attachments: attachments, clientMessageId: request.clientMessageId, to: room, by: user, named: name,
                        on: sql)
                else { throw Repeated() }
                return (message, true)
            }
        } catch is Repeated {
            guard
                let earlier = try await database.read({ sql in
                    try await store.message(in: room, from: user, clientMessageId: request.clientMessageId, on: sql)
                })
            else { throw CommonError.internalError }
            return (earlier, false)
        }
    }

    /// Writes a message in the caller's transaction, with the room's next seq, and announces it; nil
    /// when `user` already sent one with `clientMessageId` there.
    func post(
        _ text: String, attachments: [Media]? = nil, clientMessageId: String, to room: RoomID, by user: UserID, named name: String,
        on sql: any SQLDatabase
    ) async throws -> ChatMessage? {
        let at = now()
        let (seq, version) = try await roomStore.nextSeq(of: room, at: at, on: sql)
        let message = ChatMessage(
            id: .timeOrdered(at: at), roomId: room, seq: seq, senderId: user, senderName: name, text: text,
            clientMessageId: clientMessageId, sentAt: at, attachments: attachments)
        guard try await store.insert(message, on: sql) else { return nil }
        try await announce(RoomChange(version: version, kind: .message, messageID: message.id, userID: nil), in: room, on: sql)
        try await outbox.append(
            ChatEvent.messagePosted, aggregateID: room.description,
            payload: ChatEvent.MessagePosted(
                messageId: message.id, roomId: room, senderId: user, namesPlayers: !Mentions.candidates(in: text).isEmpty), on: sql)
        return message
    }

    /// 403 unless `user` sent the message (404 when they cannot see it), read before an edit's body is.
    func requireSender(of id: ChatMessageID, in room: RoomID, user: UserID) async throws {
        try await database.read { sql in
            _ = try await rooms.accessible(room, by: user, on: sql)
            _ = try Self.sent(try await store.message(id, on: sql), id: id, in: room, by: user)
        }
    }

    /// `message` when it is `id`, in `room`, not deleted (404 otherwise) and sent by `user` (403 otherwise).
    private static func sent(_ message: ChatMessage?, id: ChatMessageID, in room: RoomID, by user: UserID) throws -> ChatMessage {
        guard let message, message.roomId == room, message.deleted != true else {
            throw CommonError.notFound("No message with id \(id) in this room.")
        }
        guard message.senderId == user else { throw CommonError.forbidden("Only the sender may change a message.") }
        return message
    }

    func edit(_ id: ChatMessageID, in room: RoomID, text: String, by user: UserID) async throws -> ChatMessage {
        let text = try self.text(text)
        return try await change(id, in: room, by: user, kind: .edited) { sql, at in
            try await store.edit(id, text: text, at: at, on: sql)
        }
    }

    func delete(_ id: ChatMessageID, in room: RoomID, by user: UserID) async throws {
        _ = try await change(id, in: room, by: user, kind: .deleted) { sql, at in try await remove(id, at: at, on: sql) }
    }

    /// The message becomes a tombstone (keeping its seq); the photos it showed are published as
    /// removed, in the same transaction, for media to delete.
    func remove(_ id: ChatMessageID, at: Date, on sql: any SQLDatabase) async throws {
        let photos = try await store.message(id, on: sql)
        try await store.delete(id, at: at, on: sql)
        guard let photos, let attachments = photos.attachments, !attachments.isEmpty else { return }
        try await outbox.append(
            ChatEvent.photosRemoved, aggregateID: photos.roomId.description,
            payload: ChatEvent.PhotosRemoved(
                messageId: id, subject: MessagePhotos.subject(photos.roomId, photos.clientMessageId), mediaIds: attachments.map(\.id)),
            on: sql)
    }

    /// A page of history: newest first, or with `after`, oldest first.
    func history(of room: RoomID, before: Int?, after: Int?, limit: Int, viewer: UserID) async throws -> Page<ChatMessage> {
        guard before == nil || after == nil else { throw CommonError.invalid("after", "cannot be combined with before") }
        return try await database.read { sql in
            _ = try await rooms.accessible(room, by: viewer, on: sql)
            let window: HistoryWindow = after.map { .after($0) } ?? .before(before)
            let items = try await store.history(of: room, window, limit: limit, viewer: viewer, on: sql)
            return Page(items: items, nextCursor: nil)
        }
    }

    /// The changes of `room` after `version`, as frames for its sockets.
    func changes(of room: RoomID, after version: Int) async throws -> [ChatChange] {
        try await database.read { sql in
            let changes = try await roomStore.changes(of: room, after: version, limit: 500, on: sql)
            let messages = try await store.messages(changes.compactMap(\.messageID), on: sql)
            return changes.map { change in ChatChange(change, room: room, message: change.messageID.flatMap { messages[$0] }) }
        }
    }

    /// Logs the change and announces it with the commit.
    func announce(_ change: RoomChange, in room: RoomID, on sql: any SQLDatabase) async throws {
        try await roomStore.record(change, in: room, at: now(), on: sql)
        try await database.notify(
            channel: ChangeChannel.chatRooms, payload: ChangeChannel.payload(room, version: change.version), on: sql)
    }

    private func change(
        _ id: ChatMessageID, in room: RoomID, by user: UserID, kind: RoomChange.Kind,
        _ apply: @Sendable (any SQLDatabase, Date) async throws -> Void
    ) async throws -> ChatMessage {
        try await database.transaction { sql in
            _ = try await rooms.accessible(room, by: user, on: sql)
            // The room's next version first: it holds the room's row until commit, so the message is
            // read after any change to it committed. Read before, two deletes at once both went
            // through on PostgreSQL, and an edit racing a delete wrote its text into the deleted message.
            let version = try await roomStore.nextVersion(of: room, on: sql)
            let message = try Self.sent(try await store.message(id, on: sql), id: id, in: room, by: user)
            try await apply(sql, now())
            try await announce(RoomChange(version: version, kind: kind, messageID: id, userID: nil), in: room, on: sql)
            return try await store.message(id, on: sql) ?? message
        }
    }

    private func refuseIfBlocked(_ room: StoredRoom, _ user: UserID, on sql: any SQLDatabase) async throws {
        guard room.kind == .direct else { return }
        guard let other = try await roomStore.members(of: room.id, on: sql).first(where: { $0 != user }) else {
            throw CommonError.forbidden("The other player deleted their account: this room is kept for you to read.")
        }
        if try await people.blockedEitherWay(user, other, on: sql) { throw ChatError.blocked }
    }

    private func senderName(_ user: UserID) async throws -> String {
        if let known = try await database.read({ sql in try await people.names(of: [user], on: sql)[user] }) { return known }
        let name = try await nameFromAuth(user) ?? Self.unnamedPlayer
        try await database.transaction { sql in try await people.setName(name, of: user, on: sql) }
        return name
    }

    /// The name of a sender neither chat nor auth could name (a shared ticket's, before its owner's
    /// profile event arrives).
    static let unnamedPlayer = ShownWords.player.english

    private struct Repeated: Error {}

    /// The text as sent, trimmed, with the filter's words masked: a message is worth keeping without them.
    func text(_ text: String) throws -> String {
        if let problem = ChatMessageLimits.text.problem(text) { throw CommonError.invalid("text", ProblemText(english: problem)) }
        return filter.mask(text.trimmingBlanks)
    }
}
