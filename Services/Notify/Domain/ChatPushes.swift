import Contracts
import Foundation
import SQLKit
import ServerContracts

/// Chat's messages pushed to the players chat names for each (`ChatAPI.Internal.messagePush`:
/// members not in the room now who did not mute it, and those the message names), paced per player
/// and room (`ChatPushPacing`). Pushes of one room share a thread and collapse on the phone; none is
/// kept in the inbox (the room keeps the message).
///
/// A message within a player's quiet interval only touches the room's batch due at its end (one row,
/// however many players it holds a push for) and the windows of players held for the first time:
/// per message, a busy room costs a read of its members' windows, not a write per member.
struct ChatPushes: Sendable {
    /// The message and whom to push it to, from chat; nil once it was deleted or withheld.
    let message: @Sendable (ChatMessageID) async throws -> ChatMessagePush?
    let windows: any ChatPushWindowStore
    let notifications: Notifications
    let pacing: ChatPushPacing
    let now: @Sendable () -> Date

    func posted(_ posted: ChatEvent.MessagePosted, on sql: any SQLDatabase) async throws {
        guard let push = try await message(posted.messageId), !push.recipients.isEmpty else { return }
        let at = now()
        let paced = try await windows.windows(of: push.recipients.map(\.userId), in: push.roomId, on: sql)
        var mentionedNow: [UserID] = [], pushedNow: [UserID] = [], held: Set<Date> = [], changed: [UserID: ChatPushPacing.Window] = [:]
        for recipient in push.recipients {
            let before = paced[recipient.userId]
            let (decision, window) = pacing.next(before, at: at, mentioned: recipient.mentioned)
            if window != before { changed[recipient.userId] = window }
            switch decision {
            case .pushNow:
                if recipient.mentioned { mentionedNow.append(recipient.userId) } else { pushedNow.append(recipient.userId) }
            case .hold(let until, _): held.insert(until)
            }
        }
        let data = NotificationData(userId: push.senderId, roomId: push.roomId, messageId: push.messageId)
        let text = NotificationText.chatMessage(push)
        let now = [
            Planned(
                recipients: mentionedNow, category: .mention, text: NotificationText.mention(push), data: data, kept: false),
            Planned(recipients: pushedNow, category: .chatMessage, text: text, data: data, kept: false),
        ]
        try await notifications.deliver(now.filter { !$0.recipients.isEmpty }, on: sql)
        try await windows.save(changed, in: push.roomId, on: sql)
        for due in held.sorted() {
            try await windows.hold(ChatPushBatch(room: push.roomId, due: due, texts: text, data: data), on: sql)
        }
    }

    /// A batch due: its players are pushed the latest message it tells of, with how many more.
    static func planned(_ batch: ChatPushBatch, players: [UserID]) -> Planned {
        Planned(
            recipients: players, category: .chatMessage,
            text: NotificationText.folded(batch.texts, more: batch.messages - 1),
            data: batch.data,
            kept: false)
    }
}
