public import Contracts
public import Foundation

extension HuddleClient {
    /// Reports something the signed-in player can see as abusive: a message, a player, a team, a league
    /// or a game. Reporting the same thing again answers the first report. `block` also blocks the
    /// player (or the message's sender), as App Review expects a report button to offer:
    ///
    ///     try await huddle.report(.message(message.id), reason: .harassment, block: true)
    @discardableResult
    public func report(_ subject: ReportSubject, reason: ReportReason, note: String? = nil, block: Bool = false) async throws -> Report {
        try await send(ModerationAPI.report, body: ReportRequest(subject: subject, reason: reason, note: note, block: block ? true : nil))
    }

    /// My reports, newest first, each with its outcome (`actioned` or `dismissed` once a moderator
    /// decided; the inbox says so too, in the `moderation` category).
    public func myReports() -> AsyncThrowingStream<Report, any Error> { pages(ModerationAPI.myReports) }
}
