import Contracts
import Foundation
import SQLKit
import ServerContracts

/// Chat's messages pushed to the players chat names for each (`ChatAPI.Internal.messagePush`:
/// members not in the room now who did not mute it, and those the message names), paced per player
/// and room (`ChatPushPacing`). Pushes of one room share a thread and collapse on the phone; none is
/// kept in the inbox (the room keeps the message).
struct ChatPushes: Sendable {
    /// The message and whom to push it to, from chat; nil once it was deleted or withheld.
    let message: @Sendable (ChatMessageID) async throws -> ChatMessagePush?
    let windows: any ChatPushWindowStore
    let notifications: Notifications
    let store: any NotificationStore
    let pacing: ChatPushPacing
    let now: @Sendable () -> Date

    func posted(_ posted: ChatEvent.MessagePosted, on sql: any SQLDatabase) async throws {
        guard let push = try await message(posted.messageId), !push.recipients.isEmpty else { return }
        let at = now()
        var paced = try await windows.windows(of: push.recipients.map(\.userId), in: push.roomId, on: sql)
        var mentionedNow: [UserID] = [], pushedNow: [UserID] = [], held: [Date: [UserID]] = [:], folded: [Int: [NotificationID]] = [:]
        for recipient in push.recipients {
            let (decision, window) = pacing.next(paced[recipient.userId], at: at, mentioned: recipient.mentioned)
            paced[recipient.userId] = window
            switch decision {
            case .pushNow:
                if recipient.mentioned { mentionedNow.append(recipient.userId) } else { pushedNow.append(recipient.userId) }
            case .hold(let until): held[until, default: []].append(recipient.userId)
            case .fold(let pending, let more): folded[more, default: []].append(pending)
            }
        }
        let data = NotificationData(userId: push.senderId, roomId: push.roomId, messageId: push.messageId)
        let now = [
            plan(mentionedNow, .mention, NotificationText.mention(push), data),
            plan(pushedNow, .chatMessage, NotificationText.chatMessage(push, more: 0), data),
        ]
        try await notifications.deliver(now.filter { !$0.recipients.isEmpty }, on: sql)
        // A push held back is told again by the messages that follow it within the interval: its id is kept.
        for (due, users) in held {
            let ids = try await notifications.deliver(
                plan(users, .chatMessage, NotificationText.chatMessage(push, more: 0), data, at: due), on: sql)
            for (user, id) in ids { paced[user]?.pending = id }
        }
        for (more, ids) in folded {
            let text = NotificationText.chatMessage(push, more: more)
            try await store.retell(ids, title: text.title, body: text.body, data: data, on: sql)
        }
        try await windows.save(paced, in: push.roomId, on: sql)
    }

    private func plan(
        _ users: [UserID], _ category: NotificationCategory, _ text: NotificationText.Text, _ data: NotificationData, at: Date? = nil
    ) -> Planned {
        Planned(recipients: users, category: category, text: text, data: data, kept: false, pushAt: at)
    }
}
