import Contracts
import Foundation
import ServiceHTTP

enum PushJobTag {}
typealias PushJobID = TypedID<PushJobTag>

/// What a push shows: its notification's words and data. Each job carries its own, so a push kept in
/// no inbox (a chat message's) is written once, as its jobs, and a worker reads nothing else to send it.
struct PushContent: Equatable, Sendable {
    var id: NotificationID
    var category: NotificationCategory
    var title: String
    var body: String
    var data: NotificationData
}

/// One push of one notification to one device.
struct PushJob: Equatable, Sendable {
    var id: PushJobID
    var content: PushContent
    /// Whose device it is: the badge counts their inbox.
    var recipient: UserID
    var device: Device
    var urgent: Bool
    var timeSensitive: Bool
    var attempts: Int
    var runAt: Date
    /// After this the push is not worth sending (`apns-expiration`), and is dropped.
    var expiresAt: Date
    /// The trace of what caused the push (the event applied, the request made), continued when it is sent.
    var trace: CarriedTrace? = nil
    /// Set when the job is one device of a row the push's devices share (`SQLPushJobStore`); `id` is the row's.
    var shared: SharedRow? = nil
}

/// Where a job sits in a row shared by the devices of one push (a chat message's to a room's members
/// away), as it was when claimed.
struct SharedRow: Equatable, Sendable {
    /// Its place among the row's devices, from 0.
    var index: Int
    /// The row's devices before this place that were answered when it was claimed.
    var answered: Int
    /// How many devices the row holds.
    var devices: Int
}

/// A device of a shared row, as the row keeps it.
struct PushTarget: Codable, Equatable, Sendable {
    var userId: UserID
    var platform: PushPlatform
    var token: String
    var environment: APNsEnvironment?
    var topic: String?

    init(_ job: PushJob) {
        (userId, platform, token) = (job.recipient, job.device.platform, job.device.token)
        (environment, topic) = (job.device.environment, job.device.topic)
    }

    var device: Device {
        Device(platform: platform, token: token, environment: environment, topic: topic, registeredAt: Date(timeIntervalSince1970: 0))
    }
}
