import Configuration
import Foundation
import ServiceHTTP

/// Moderation's configuration. Keys: `moderation.reports.per.hour` (how many reports a player may
/// make in an hour, 30), `moderation.hide.after` (how many distinct reporters hide a subject until a
/// moderator decides, 3), `moderation.response.ms` (how soon a case should be decided, 24 hours: older
/// open cases are overdue), `moderation.queue.check.ms` (how often the queue's age is measured, 30000),
/// `moderation.console.session.ms` (how long a console sign-in lasts, 12 hours), `moderation.console.cookie.secure`
/// (`true`: the console's cookies are `Secure` even when the request did not say it came over HTTPS).
struct ModerationSettings: Sendable {
    var reportsPerHour: Int
    var hideAfter: Int
    var responseTime: TimeInterval
    var queueCheck: Duration
    var consoleSessionLifetime: TimeInterval
    var secureConsoleCookies: Bool

    init(reader: ConfigReader) {
        reportsPerHour = max(1, reader.integer("moderation.reports.per.hour", default: 30))
        hideAfter = max(1, reader.integer("moderation.hide.after", default: 3))
        responseTime = TimeInterval(max(1, reader.integer("moderation.response.ms", default: 86_400_000))) / 1000
        queueCheck = reader.milliseconds("moderation.queue.check.ms", default: 30_000)
        consoleSessionLifetime = TimeInterval(max(60_000, reader.integer("moderation.console.session.ms", default: 43_200_000))) / 1000
        secureConsoleCookies = reader.text("moderation.console.cookie.secure", default: "false") == "true"
    }

    var reportPolicy: RateLimitPolicy { RateLimitPolicy(name: "reports", quota: reportsPerHour, windowSeconds: 3600) }
}
