import Contracts
import Foundation
import SQLKit
import ServiceKit

/// Something to tell some users: what the inbox keeps and what their devices are pushed.
struct Planned: Equatable, Sendable {
    var recipients: [UserID]
    var category: NotificationCategory
    var text: NotificationText.Text
    var data: NotificationData
    /// Pushed at once (`apns-priority` 10); otherwise when the phone sees fit (5).
    var urgent = true
    /// Breaks through Focus (`interruption-level: time-sensitive`): the reminder an hour before.
    var timeSensitive = false
}

/// Inboxes: keeping what is planned and queueing its pushes, listing, marking read.
struct Notifications: Sendable {
    let database: Database
    let store: any NotificationStore
    let devices: any DeviceStore
    let preferences: any PreferenceStore
    let pushes: any PushJobStore
    let pushLifetime: TimeInterval
    let now: @Sendable () -> Date

    /// One inbox entry per recipient, and a push job per device of those who did not turn the
    /// category off, all in the caller's transaction (the one that applies the event).
    func deliver(_ planned: Planned, on sql: any SQLDatabase) async throws {
        let recipients = Array(Set(planned.recipients)).sorted { $0.description < $1.description }
        guard !recipients.isEmpty else { return }
        let at = now()
        let muted = try await preferences.mutedUsers(recipients, category: planned.category, on: sql)
        let devicesOf = try await devices.devices(of: recipients.filter { !muted.contains($0) }, on: sql)
        for user in recipients {
            let notification = InboxNotification(
                id: .timeOrdered(at: at), category: planned.category, title: planned.text.title, body: planned.text.body,
                data: planned.data,
                createdAt: at)
            try await store.insert(notification, for: user, on: sql)
            for device in devicesOf[user] ?? [] {
                try await pushes.enqueue(
                    PushJob(
                        id: PushJobID(), notification: notification.id, device: device, urgent: planned.urgent,
                        timeSensitive: planned.timeSensitive, attempts: 0, runAt: at, expiresAt: at.addingTimeInterval(pushLifetime)),
                    on: sql)
            }
        }
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
                throw CommonError.notFound("No notification with id \(id).")
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
