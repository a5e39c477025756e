import Contracts
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

/// Something to tell some users: what the inbox keeps and what their devices are pushed.
struct Planned: Equatable, Sendable {
    var recipients: [UserID]
    var category: NotificationCategory
    var text: NotificationText.Texts
    var data: NotificationData
    /// Pushed at once (`apns-priority` 10); otherwise when the phone sees fit (5).
    var urgent = true
    /// Breaks through Focus (`interruption-level: time-sensitive`): the reminder an hour before.
    var timeSensitive = false
    /// Pushed to the recipients' devices; otherwise only kept in the inbox (a receipt for what the
    /// player just did on their phone).
    var pushed = true
    /// Kept in the inbox (and counted unread); a chat push is not: the room keeps the message, and its
    /// jobs are all that is written of it.
    var kept = true
    /// When its pushes go: at once when nil (a chat push held back to the end of its quiet interval).
    var pushAt: Date? = nil
    /// The game each recipient may answer from the push (its start ends the answer token).
    var answers: Answerable? = nil
}

/// A game a notification asks its recipients to answer, until it starts (`RSVPGrant`).
struct Answerable: Equatable, Sendable {
    var game: GameID
    var kickoff: Date
}

/// Inboxes: keeping what is planned and queueing its pushes, listing, marking read.
struct Notifications: Sendable {
    let database: Database
    let store: any NotificationStore
    let devices: any DeviceStore
    let preferences: any PreferenceStore
    /// The language each recipient reads (from auth's profile events).
    let directory: any DirectoryStore
    let pushes: any PushJobStore
    let pushLifetime: TimeInterval
    /// Rung with the commit of new push jobs, so the push workers send them at once.
    let pushesQueued: Doorbell?
    /// A recipient's token to answer a game from the push; nil where notify holds no key to sign it.
    let answerToken: @Sendable (UserID, Answerable) async throws -> String?
    let now: @Sendable () -> Date

    /// One inbox entry per recipient (unless not `kept`), and a push job per device of those who did
    /// not turn the category off, all in the caller's transaction (the one that applies the event). Answers each
    /// recipient's notification.
    @discardableResult
    func deliver(_ planned: Planned, on sql: any SQLDatabase) async throws -> [UserID: NotificationID] {
        try await deliver([planned], on: sql).first ?? [:]
    }

    /// Delivers many at once in a handful of statements (the reminder worker fires hundreds at a
    /// time); answers each plan's notifications by recipient.
    @discardableResult
    func deliver(_ plans: [Planned], on sql: any SQLDatabase) async throws -> [[UserID: NotificationID]] {
        let at = now()
        var muted: [NotificationCategory: Set<UserID>] = [:]
        for (category, same) in Dictionary(grouping: plans, by: \.category) {
            muted[category] = try await preferences.mutedUsers(Array(Set(same.flatMap(\.recipients))), category: category, on: sql)
        }
        let everyone = Array(Set(plans.flatMap(\.recipients)))
        let devicesOf = try await devices.devices(of: everyone, on: sql)
        let languages = try await directory.languages(of: everyone, on: sql)
        let trace = CarriedTrace.recorded
        var inbox: [(InboxNotification, UserID)] = []
        var jobs: [PushJob] = [], written: [[UserID: NotificationID]] = []
        for planned in plans {
            var ids: [UserID: NotificationID] = [:]
            let runAt = planned.pushAt ?? at
            // A push kept in no inbox and answered by no one shows the same to all who read a language:
            // one content, whose jobs the store keeps in rows its devices share. One kept takes the id
            // of each player's inbox entry.
            let alike = !planned.kept && planned.answers == nil
            var contentIn: [Language: PushContent] = [:]
            for user in Set(planned.recipients) {
                var data = planned.data
                if let answers = planned.answers, answers.kickoff > at { data.rsvpToken = try await answerToken(user, answers) }
                let language = languages[user] ?? .en
                let text = planned.text[language]
                let content =
                    (alike ? contentIn[language] : nil)
                    ?? PushContent(id: .timeOrdered(at: at), category: planned.category, title: text.title, body: text.body, data: data)
                if alike { contentIn[language] = content }
                if planned.kept {
                    inbox.append(
                        (
                            InboxNotification(
                                id: content.id, category: content.category, title: content.title, body: content.body, data: data,
                                createdAt: at, readAt: nil), user
                        ))
                }
                ids[user] = content.id
                guard planned.pushed, muted[planned.category]?.contains(user) != true else { continue }
                for device in devicesOf[user] ?? [] {
                    jobs.append(
                        PushJob(
                            id: .timeOrdered(at: at), content: content, recipient: user, device: device, urgent: planned.urgent,
                            timeSensitive: planned.timeSensitive, attempts: 0, runAt: runAt,
                            expiresAt: runAt.addingTimeInterval(pushLifetime), trace: trace))
                }
            }
            written.append(ids)
        }
        try await store.insert(inbox, on: sql)
        try await pushes.enqueue(jobs, on: sql)
        if !jobs.isEmpty { try await pushesQueued?.ring(on: sql) }
        return written
    }

    func inbox(of user: UserID, page: PageRequest) async throws -> InboxPage {
        try await database.read { sql in
            let items = try await store.page(of: user, page, on: sql)
            return InboxPage(items: items.items, nextCursor: items.nextCursor, unreadCount: try await store.unreadCount(of: user, on: sql))
        }
    }

    func markRead(_ id: NotificationID, by user: UserID) async throws -> InboxUnread {
        try await database.transaction { sql in
            guard try await store.markRead(id, of: user, at: now(), on: sql) else {
                throw CommonError.missing(id)
            }
            return InboxUnread(unreadCount: try await store.unreadCount(of: user, on: sql))
        }
    }

    func markAllRead(by user: UserID) async throws -> InboxUnread {
        try await database.transaction { sql in
            try await store.markAllRead(of: user, at: now(), on: sql)
            return InboxUnread(unreadCount: 0)
        }
    }
}
