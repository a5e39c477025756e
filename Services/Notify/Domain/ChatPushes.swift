import Contracts
import Foundation
import SQLKit
import ServerContracts

/// Chat's messages pushed to the players chat names for each (`ChatAPI.Internal.messagePush`:
/// members not in the room now who did not mute it, and those the message names), paced per room
/// (`ChatPushPacing`). Pushes of one room share a thread and collapse on the phone; none is kept in
/// the inbox (the room keeps the message).
///
/// Chat is asked whom to push when a room's quiet spell ends and when its held batch is due, not for
/// every message: a message within the interval only touches the room's batch (one row, however many
/// members the room has), and chat, whose store the sends write to, answers a busy 1,000-member room
/// twice an interval instead of twenty times. A message that names players is asked about at once, so
/// they are pushed at once. Whoever left the room meanwhile is pushed when the batch is due.
struct ChatPushes: Sendable {
    /// The message and whom to push it to, from chat; nil once it was deleted or withheld.
    let message: @Sendable (ChatMessageID) async throws -> ChatMessagePush?
    /// Those of several messages still shown, asked at once.
    let messages: @Sendable ([ChatMessageID]) async throws -> [ChatMessagePush]
    let windows: any ChatPushWindowStore
    let notifications: Notifications
    let pacing: ChatPushPacing
    let now: @Sendable () -> Date

    func posted(_ posted: ChatEvent.MessagePosted, on sql: any SQLDatabase) async throws {
        let before = try await windows.window(of: posted.roomId, on: sql)
        let (decision, window) = pacing.next(before, at: now())
        switch decision {
        case .pushNow:
            if let push = try await message(posted.messageId) {
                let data = Self.data(of: push)
                let (mentioned, others) = push.recipients.partitioned(by: \.mentioned)
                try await notifications.deliver(
                    [
                        Planned(recipients: mentioned, category: .mention, text: NotificationText.mention(push), data: data, kept: false),
                        Planned(
                            recipients: others, category: .chatMessage, text: NotificationText.chatMessage(push), data: data, kept: false),
                    ].filter { !$0.recipients.isEmpty }, on: sql)
            }
        case .hold(let until, _):
            if posted.namesPlayers, let push = try await message(posted.messageId) {
                let mentioned = push.recipients.filter(\.mentioned).map(\.userId)
                if !mentioned.isEmpty {
                    try await notifications.deliver(
                        [
                            Planned(
                                recipients: mentioned, category: .mention, text: NotificationText.mention(push), data: Self.data(of: push),
                                kept: false)
                        ], on: sql)
                }
            }
            let latest = NotificationData(userId: posted.senderId, roomId: posted.roomId, messageId: posted.messageId)
            try await windows.hold(ChatPushBatch(room: posted.roomId, due: until, data: latest), on: sql)
        }
        // The window moves on even when no one was pushed (a room everyone is reading): it paces the asking too.
        if window != before { try await windows.save(window, of: posted.roomId, on: sql) }
    }

    /// The batches due, each pushed to whom chat names for its latest message now (its members away,
    /// who did not mute the room), telling of the latest with how many more; answers how many were due.
    /// A batch whose latest message was deleted meanwhile goes to no one. Chat is asked once for them
    /// all: rooms whose first messages came together fall due together, and asking for each in turn
    /// was ten reads of a thousand members in a row beside the sends chat was serving.
    func sendDue(_ limit: Int, on sql: any SQLDatabase) async throws -> Int {
        let due = try await windows.takeDue(limit, at: now(), on: sql)
        let latest = due.compactMap(\.data.messageId)
        let pushes = Dictionary(try await (latest.isEmpty ? [] : messages(latest)).map { ($0.messageId, $0) }) { first, _ in first }
        var planned: [Planned] = []
        for batch in due {
            guard let messageId = batch.data.messageId, let push = pushes[messageId] else { continue }
            let players = push.recipients.filter(\.everyMessage).map(\.userId)
            guard !players.isEmpty else { continue }
            planned.append(
                Planned(
                    recipients: players, category: .chatMessage,
                    text: NotificationText.folded(NotificationText.chatMessage(push), more: batch.messages - 1), data: Self.data(of: push),
                    kept: false))
        }
        try await notifications.deliver(planned, on: sql)
        return due.count
    }

    private static func data(of push: ChatMessagePush) -> NotificationData {
        NotificationData(userId: push.senderId, roomId: push.roomId, messageId: push.messageId)
    }
}

extension [ChatMessagePush.Recipient] {
    /// The players `flag` holds for, then the rest.
    fileprivate func partitioned(by flag: KeyPath<ChatMessagePush.Recipient, Bool>) -> ([UserID], [UserID]) {
        (filter { $0[keyPath: flag] }.map(\.userId), filter { !$0[keyPath: flag] }.map(\.userId))
    }
}
