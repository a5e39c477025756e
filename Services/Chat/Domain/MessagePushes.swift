import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// Whom a message is pushed to, decided when notify takes the message's event: a team's, game's or
/// direct room's members who follow it on no socket, did not mute it and did not block the sender; in
/// any room, the players it names (`@Name`), even those who muted it. The global and match rooms,
/// open to everyone, push only to the players they name.
struct MessagePushes: Sendable {
    let database: Database
    let rooms: any RoomStore
    let messages: any MessageStore
    let audience: any PushAudienceStore
    let now: @Sendable () -> Date

    func push(of id: ChatMessageID) async throws -> ChatMessagePush {
        guard let push = try await database.read({ sql in try await push(of: id, at: now(), on: sql) }) else {
            throw CommonError.missing(id)
        }
        return push
    }

    /// The pushes of the messages still shown among `ids`, in their order, read together.
    func pushes(of ids: [ChatMessageID]) async throws -> MessagePushesResponse {
        guard ids.count <= MessagePushesRequest.maxIDs else {
            throw CommonError.invalid("ids", "must hold at most \(MessagePushesRequest.maxIDs) ids")
        }
        let at = now()
        return MessagePushesResponse(
            items: try await database.read { sql in
                var pushes: [ChatMessagePush] = []
                for id in ids { if let push = try await push(of: id, at: at, on: sql) { pushes.append(push) } }
                return pushes
            })
    }

    /// Nil for a message deleted or withheld, or in a closed room.
    private func push(of id: ChatMessageID, at: Date, on sql: any SQLDatabase) async throws -> ChatMessagePush? {
        guard let message = try await messages.message(id, on: sql), message.deleted != true, message.hidden != true,
            let room = try await rooms.room(message.roomId, on: sql), room.closedAt == nil
        else { return nil }
        let sender = message.senderId
        let candidates = message.text.contains("@") ? Mentions.candidates(in: message.text) : []
        let membersOnly = room.kind == .team || room.kind == .game || room.kind == .direct
        let listeners = try await audience.named(candidates, in: room.id, membersOnly: membersOnly, besides: sender, at: at, on: sql)
        let named = Mentions.named(in: message.text, among: Dictionary(listeners.map { ($0.userId, $0.name) }) { first, _ in first })
        var recipients: [ChatMessagePush.Recipient]
        if membersOnly {
            let members = try await audience.members(of: room.id, besides: sender, at: at, on: sql)
            recipients =
                members.listening.map { .init(userId: $0, mentioned: named.contains($0), everyMessage: true) }
                + members.muted.filter(named.contains).map { .init(userId: $0, mentioned: true, everyMessage: false) }
        } else {
            let mentioned = listeners.map(\.userId).filter(named.contains)
            recipients = mentioned.map { .init(userId: $0, mentioned: true, everyMessage: false) }
        }
        return ChatMessagePush(
            messageId: message.id, roomId: room.id, roomKind: room.kind,
            roomName: room.kind == .direct ? message.senderName : room.name, senderId: sender, senderName: message.senderName,
            text: message.text, photoCount: message.attachments?.count ?? 0, recipients: recipients)
    }
}
