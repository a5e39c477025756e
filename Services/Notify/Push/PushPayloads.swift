import Contracts
import Foundation

// The bodies sent to APNs and FCM, as Codable structs: building them as dictionaries for
// JSONSerialization took 15% of notify's CPU at 1,200 pushes a second (perf).

/// Apple's `aps` dictionary, and beside it the ids the app opens the right screen with.
struct APNsPayload: Encodable {
    struct Alert: Encodable {
        var title: String
        var body: String
    }

    struct APS: Encodable {
        var alert: Alert
        var sound = "default"
        /// Groups a category's notifications on the lock screen.
        var threadId: String
        /// `time-sensitive` breaks through Focus.
        var interruptionLevel: String?
        var badge: Int?
        /// `RSVP` when the push can be answered from the lock screen: the app registers that
        /// category with its Going / Maybe / Not going actions.
        var category: String?

        enum CodingKeys: String, CodingKey {
            case alert, sound, badge, category
            case threadId = "thread-id"
            case interruptionLevel = "interruption-level"
        }
    }

    var aps: APS
    var notificationId: String
    var category: String
    var data: NotificationData

    init(_ push: OutgoingPush) {
        let notification = push.notification
        aps = APS(
            alert: Alert(title: notification.title, body: notification.body), threadId: push.thread,
            interruptionLevel: push.job.timeSensitive ? "time-sensitive" : nil, badge: push.badge,
            category: notification.data.rsvpToken == nil ? nil : PushAction.rsvp)
        notificationId = notification.id.description
        category = notification.category.rawValue
        data = notification.data
    }

    private enum CodingKeys: String, CodingKey { case aps, notificationId, category }

    /// The ids sit at the top level, beside `aps`.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(aps, forKey: .aps)
        try container.encode(notificationId, forKey: .notificationId)
        try container.encode(category, forKey: .category)
        try data.encode(to: encoder)
    }
}

/// FCM HTTP v1's `messages:send` body: the notification, its ids as string data, and Android's
/// priority, lifetime and collapse key.
struct FCMMessageBody: Encodable {
    struct Message: Encodable {
        var token: String
        var notification: Notification
        var data: [String: String]
        var android: Android
    }

    struct Notification: Encodable {
        var title: String
        var body: String
    }

    struct Android: Encodable {
        var priority: String
        var ttl: String
        var collapseKey: String
        var notification: AndroidNotification

        enum CodingKeys: String, CodingKey {
            case priority, ttl, notification
            case collapseKey = "collapse_key"
        }
    }

    /// The launcher's badge count, as Android shows it, and the tag under which a newer
    /// notification replaces an older one in the tray (a room's chat pushes share one).
    struct AndroidNotification: Encodable {
        var notificationCount: Int?
        var tag: String
        /// The activity that answers from the notification (`RSVP`).
        var clickAction: String?

        enum CodingKeys: String, CodingKey {
            case tag
            case notificationCount = "notification_count"
            case clickAction = "click_action"
        }
    }

    var message: Message

    init(_ push: OutgoingPush, now: Date) {
        let notification = push.notification
        var data = ["notificationId": notification.id.description, "category": notification.category.rawValue]
        for (key, value) in notification.data.fields { data[key] = value }
        message = Message(
            token: push.job.device.token, notification: Notification(title: notification.title, body: notification.body), data: data,
            android: Android(
                priority: push.job.urgent ? "HIGH" : "NORMAL", ttl: "\(max(0, Int(push.job.expiresAt.timeIntervalSince(now))))s",
                collapseKey: push.collapseKey,
                notification: AndroidNotification(
                    notificationCount: push.badge, tag: push.thread,
                    clickAction: notification.data.rsvpToken == nil ? nil : PushAction.rsvp)))
    }
}

/// The notification categories an app registers, with their actions.
enum PushAction {
    /// Going / Maybe / Not going, answered with the push's `rsvpToken`.
    static let rsvp = "RSVP"
}

extension NotificationData {
    private static func instant(_ date: Date) -> String { date.formatted(.iso8601) }

    /// The ids present, by their wire names (push payloads carry them as strings).
    var fields: [(String, String)] {
        [
            ("gameId", gameId?.description), ("teamId", teamId?.description), ("roundId", roundId?.description),
            ("userId", userId?.description), ("startsAt", startsAt.map(Self.instant)),
            ("previousStartsAt", previousStartsAt.map(Self.instant)), ("roomId", roomId?.description),
            ("messageId", messageId?.description), ("rsvpToken", rsvpToken),
        ]
        .compactMap { key, value in value.map { (key, $0) } }
    }
}
