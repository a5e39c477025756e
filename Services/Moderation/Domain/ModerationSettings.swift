import Configuration
import Foundation
import ServiceKit

/// Moderation's configuration. Keys: `moderation.reports.per.hour` (how many reports a player may
/// make in an hour, 30), `moderation.hide.after` (how many distinct reporters hide a subject until a
/// moderator decides, 3).
struct ModerationSettings: Sendable {
    var reportsPerHour: Int
    var hideAfter: Int

    init(reader: ConfigReader) {
        reportsPerHour = max(1, reader.integer("moderation.reports.per.hour", default: 30))
        hideAfter = max(1, reader.integer("moderation.hide.after", default: 3))
    }

    var reportPolicy: RateLimitPolicy { RateLimitPolicy(name: "reports", quota: reportsPerHour, windowSeconds: 3600) }
}
