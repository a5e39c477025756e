import Contracts
import Crypto
import Foundation
import ServerContracts
import ServiceHTTP

/// How provider reports become versions of a match: pure, so the rules are tested without a store
/// or a provider.
enum MatchRules {
    /// The namespace of match ids derived from API-Football fixture ids (RFC 9562 name-based ids).
    /// 0b4e9d1c-7a63-4f2e-9c85-3d1a6f0e2b47
    static let fixtureNamespace = UUID(
        uuid: (0x0b, 0x4e, 0x9d, 0x1c, 0x7a, 0x63, 0x4f, 0x2e, 0x9c, 0x85, 0x3d, 0x1a, 0x6f, 0x0e, 0x2b, 0x47))

    /// A UUID version 5 of the fixture id: the same on every replica and after every rebuild, so a
    /// match's id never depends on which instance saw it first.
    static func id(ofFixture fixture: Int) -> MatchID {
        MatchID(.nameBased("api-football/fixture/\(fixture)", in: fixtureNamespace))
    }

    /// The next version of the match after `report`, or nil when the report changes nothing (the
    /// usual answer while a match stands still). A report without events, lineups or statistics
    /// (a day listing) keeps those already known; a report that differs in anything, a correction
    /// included, is a new version.
    static func applying(_ report: ReportedMatch, to current: Match?, at now: Date) -> Match? {
        var next = Match(
            id: id(ofFixture: report.fixtureID), league: report.league, kickoff: report.kickoff, status: report.status,
            minute: report.minute, home: report.home, away: report.away, score: report.score, halftime: report.halftime,
            fulltime: report.fulltime, events: report.events ?? current?.events ?? [], lineups: report.lineups ?? current?.lineups,
            statistics: report.statistics ?? current?.statistics, version: (current?.version ?? 0) + 1, updatedAt: now)
        // The prediction comes from another call (`predicted`) and stays until it changes.
        next.prediction = current?.prediction
        guard let current else { return next }
        var unchanged = next
        unchanged.version = current.version
        unchanged.updatedAt = current.updatedAt
        return unchanged == current ? nil : next
    }

    /// The next version of `match` with the provider's prediction, or nil when it says the same.
    static func predicted(_ match: Match, _ prediction: Match.Prediction, at now: Date) -> Match? {
        guard match.prediction != prediction else { return nil }
        var next = match
        next.prediction = prediction
        next.version += 1
        next.updatedAt = now
        return next
    }

    /// Whether the poller asks the provider's prediction of a match: before kickoff, within `ahead`
    /// of it, and not asked since `recheck` ago (a prediction moves little; a fixture may have none).
    static func awaitsPrediction(
        status: MatchStatus, kickoff: Date, askedAt: Date?, now: Date, ahead: TimeInterval, recheck: TimeInterval
    ) -> Bool {
        guard MatchStatus.beforeKickoff.contains(status), kickoff > now, kickoff.timeIntervalSince(now) <= ahead else { return false }
        return askedAt.map { now.timeIntervalSince($0) >= recheck } ?? true
    }

    /// The next version of a match in play the provider last reported at `lastReported`, marked
    /// silent since then once `after` has passed without a report; nil while it is not due (or is
    /// marked already). The next report makes a version without the mark (`applying`).
    static func silenced(_ match: Match, lastReported: Date, now: Date, after: TimeInterval) -> Match? {
        guard MatchStatus.inPlay.contains(match.status), match.silentSince == nil, now.timeIntervalSince(lastReported) >= after else {
            return nil
        }
        var next = match
        next.silentSince = lastReported
        next.version += 1
        next.updatedAt = now
        return next
    }

    /// The events other services hear of for a new version: `updated` when the match is new or its
    /// kickoff, status or score moved, or it went silent or spoke again; `finished` when it has just reached a status with no play to come.
    static func notices(from old: Match?, to new: Match) -> [EventType<MatchEvent.MatchChanged>] {
        var notices: [EventType<MatchEvent.MatchChanged>] = []
        if old == nil || old?.kickoff != new.kickoff || old?.status != new.status || old?.score != new.score
            || old?.silentSince != new.silentSince
        {
            notices.append(MatchEvent.updated)
        }
        if new.status.isOver, old?.status != new.status { notices.append(MatchEvent.finished) }
        return notices
    }

    /// Whether the poller should ask for the match on every live tick (with events, lineups and
    /// statistics): in play, kicking off within `lead`, or past its kickoff and not over yet (the
    /// provider may be late to start it).
    static func isFollowedLive(status: MatchStatus, kickoff: Date, now: Date, lead: TimeInterval) -> Bool {
        if MatchStatus.inPlay.contains(status) { return true }
        guard MatchStatus.beforeKickoff.contains(status) else { return false }
        return kickoff.timeIntervalSince(now) <= lead && now.timeIntervalSince(kickoff) <= 6 * 3600
    }

    /// The entity tag of a list: its matches and their versions, hashed; it changes when any
    /// match in it changes and when one joins or leaves it.
    static func listTag(_ versions: [(id: MatchID, version: Int)]) -> String {
        let text = versions.map { "\($0.id)/\($0.version)" }.joined(separator: ",")
        return "\"" + SHA256.hash(data: Data(text.utf8)).prefix(12).hexString + "\""
    }

    /// The entity tag of one match at a version.
    static func matchTag(_ id: MatchID, version: Int) -> String { "\"\(id.description.prefix(8))-\(version)\"" }
}
