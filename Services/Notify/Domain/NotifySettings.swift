import Configuration
import Foundation
import ServiceKit

/// Notify's rules that are configuration, read once at start.
struct NotifySettings: Sendable {
    /// The app's bundle id: the APNs topic of a device registered without one.
    var apnsTopic: String
    /// How long a push is worth delivering (`apns-expiration`); a job still unsent then is dropped.
    var pushLifetime: TimeInterval

    /// Keys: `notify.apns.topic` (default `app.huddle.ios`), `notify.push.lifetime.ms` (86400000: a day).
    init(reader: ConfigReader) {
        apnsTopic = reader.string(forKey: "notify.apns.topic", default: "app.huddle.ios")
        pushLifetime = max(1, reader.milliseconds("notify.push.lifetime.ms", default: 86_400_000).seconds)
    }
}
