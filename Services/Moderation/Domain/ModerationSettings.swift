import Configuration
import Foundation
import ServiceKit

/// Moderation's configuration. Keys: `moderation.reports.per.hour` (how many reports a player may
/// make in an hour, 30), `moderation.hide.after` (how many distinct reporters hide a subject until a
/// moderator decides, 3), `moderation.response.ms` (how soon a case should be decided, 24 hours: older
/// open cases are overdue), `moderation.queue.check.ms` (how often the queue's age is measured, 30000).
struct ModerationSettings: Sendable {
    var reportsPerHour: Int
    var hideAfter: Int
    var responseTime: TimeInterval
    var queueCheck: Duration

    init(reader: ConfigReader) {
        reportsPerHour = max(1, reader.integer("moderation.reports.per.hour", default: 30))
        hideAfter = max(1, reader.integer("moderation.hide.after", default: 3))
        responseTime = TimeInterval(max(1, reader.integer("moderation.response.ms", default: 86_400_000))) / 1000
        queueCheck = reader.milliseconds("moderation.queue.check.ms", default: 30_000)
    }

    var reportPolicy: RateLimitPolicy { RateLimitPolicy(name: "reports", quota: reportsPerHour, windowSeconds: 3600) }
}
