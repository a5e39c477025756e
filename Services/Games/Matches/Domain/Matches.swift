import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// Professional matches: provider reports become versions, each committed with its log entry and
/// its events and announced with its commit (`Database.notify`, which every instance's
/// `ChangeNotifications` hands to its live feed) to the devices following the match; reads are conditional, so a phone
/// that polls pays for a body only when something changed.
struct Matches: Sendable {
    let database: Database
    let store: any MatchStore
    /// How long an answer stays current: the live poll interval.
    let maxAgeSeconds: Int
    var outbox: Outbox { Outbox(now: database.now) }

    /// A match that changed, as it now stands.
    struct Ingested: Sendable {
        let fixtureID: Int
        let match: Match
        var isNew: Bool { match.version == 1 }
    }

    /// Applies the provider's reports; returns the matches that changed.
    @discardableResult
    func ingest(_ reports: [ReportedMatch], at now: Date) async throws -> [Ingested] {
        var changed: [Ingested] = []
        for report in reports {
            let id = MatchRules.id(ofFixture: report.fixtureID)
            let saved = try await database.transaction { sql -> Match? in
                let current = try await store.lock(id, on: sql)
                guard let next = MatchRules.applying(report, to: current, at: now) else { return nil }
                try await store.save(next, fixtureID: report.fixtureID, isNew: current == nil, on: sql)
                for notice in MatchRules.notices(from: current, to: next) {
                    try await outbox.append(
                        notice, aggregateID: id.description,
                        payload: MatchEvent.MatchChanged(match: next, providerFixtureId: report.fixtureID), on: sql)
                }
                try await database.notify(
                    channel: ChangeChannel.matches, payload: ChangeChannel.payload(id, version: next.version), on: sql)
                return next
            }
            if let saved { changed.append(Ingested(fixtureID: report.fixtureID, match: saved)) }
        }
        let reported = reports.map { MatchRules.id(ofFixture: $0.fixtureID) }
        try await database.transaction { sql in try await store.reported(reported, at: now, on: sql) }
        return changed
    }

    /// Marks the matches in play the provider has not reported for `after` as silent
    /// (`MatchRules.silenced`), each a version with its events, as a report would be.
    @discardableResult
    func markSilent(at now: Date, after: TimeInterval) async throws -> [Match] {
        let due = try await database.read { sql in try await store.unreported(since: now.addingTimeInterval(-after), on: sql) }
        var marked: [Match] = []
        for (candidate, reportedAt) in due {
            let saved = try await database.transaction { sql -> Match? in
                guard let current = try await store.lock(candidate.id, on: sql),
                    let next = MatchRules.silenced(current, lastReported: reportedAt, now: now, after: after),
                    let fixtureID = try await store.fixtureID(of: candidate.id, on: sql)
                else { return nil }
                try await store.save(next, fixtureID: fixtureID, isNew: false, on: sql)
                for notice in MatchRules.notices(from: current, to: next) {
                    try await outbox.append(
                        notice, aggregateID: next.id.description,
                        payload: MatchEvent.MatchChanged(match: next, providerFixtureId: fixtureID),
                        on: sql)
                }
                try await database.notify(
                    channel: ChangeChannel.matches, payload: ChangeChannel.payload(next.id, version: next.version), on: sql)
                return next
            }
            if let saved { marked.append(saved) }
        }
        return marked
    }

    func match(_ id: MatchID) async throws -> Conditional<Match> {
        guard let version = try await database.read({ sql in try await store.version(of: id, on: sql) }) else { throw Self.notFound }
        return Conditional(etag: MatchRules.matchTag(id, version: version), maxAgeSeconds: maxAgeSeconds) {
            try await current(id)
        }
    }

    func list(_ listing: MatchListing) async throws -> Conditional<Page<Match>> {
        let versions = try await database.read { sql in try await store.versions(listing, on: sql) }
        return Conditional(etag: MatchRules.listTag(versions), maxAgeSeconds: maxAgeSeconds) {
            Page(items: try await database.read { sql in try await store.matches(listing, on: sql) }, nextCursor: nil)
        }
    }

    func current(_ id: MatchID) async throws -> Match {
        guard let match = try await database.read({ sql in try await store.match(id, on: sql) }) else { throw Self.notFound }
        return match
    }

    /// Versions after `version`, for a device catching up.
    func changes(of id: MatchID, after version: Int) async throws -> [MatchChange] {
        try await database.read { sql in try await store.changes(of: id, after: version, on: sql) }
    }

    /// Fixtures whose prediction the poller should ask for now (`MatchRules.awaitsPrediction`), soonest first.
    func awaitingPrediction(at now: Date, ahead: TimeInterval, recheck: TimeInterval, limit: Int) async throws -> [Int] {
        try await database.read { sql in try await store.predictionCandidates(kickoff: now..<now.addingTimeInterval(ahead), on: sql) }
            .filter {
                MatchRules.awaitsPrediction(
                    status: $0.status, kickoff: $0.kickoff, askedAt: $0.askedAt, now: now, ahead: ahead, recheck: recheck)
            }
            .prefix(limit).map(\.fixtureID)
    }

    /// Records that the provider was asked, and a prediction it gave as a new version of the match
    /// (announced to its followers like any change; no event: nothing else acts on it).
    func predict(fixture: Int, _ prediction: Match.Prediction?, at now: Date) async throws {
        let id = MatchRules.id(ofFixture: fixture)
        try await database.transaction { sql in
            try await store.predictionAsked(fixtureID: fixture, at: now, on: sql)
            guard let prediction, let current = try await store.lock(id, on: sql),
                let next = MatchRules.predicted(current, prediction, at: now)
            else { return }
            try await store.save(next, fixtureID: fixture, isNew: false, on: sql)
            try await database.notify(channel: ChangeChannel.matches, payload: ChangeChannel.payload(id, version: next.version), on: sql)
        }
    }

    /// Fixtures the poller asks about on every live tick (`MatchRules.isFollowedLive`).
    func followedLive(at now: Date, lead: TimeInterval) async throws -> [Int] {
        try await database.read { sql in try await store.schedule(since: now.addingTimeInterval(-6 * 3600), on: sql) }
            .filter { MatchRules.isFollowedLive(status: $0.status, kickoff: $0.kickoff, now: now, lead: lead) }.map(\.fixtureID)
    }

    static let notFound = CommonError.notFound("No match with this id.")
}
