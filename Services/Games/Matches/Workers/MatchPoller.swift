import Contracts
import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceFeatures
import ServiceHTTP
import ServiceLifecycle
import ServiceStore

/// Keeps games' matches as the provider reports them: lists today's and tomorrow's fixtures every
/// day interval, and on every live tick asks for the fixtures in play or about to start (with
/// events, lineups and statistics). Only the instance holding the feed lease polls. A provider that
/// is down, refuses or rate-limits leaves the stored matches served as they were (`PollSchedule`).
struct MatchPoller: Service {
    struct Settings: Sendable {
        var liveInterval: Duration
        var dayInterval: Duration
        /// Leagues followed; empty follows every league the provider reports.
        var leagues: Set<Int>
        /// How long a match in play may go unreported before it is marked silent (`MatchRules.silenced`).
        var silentAfter: Duration
        /// How long before kickoff a fixture is asked for on every tick (lineups come about an hour before).
        var lead: TimeInterval = 3600
        /// Predictions are asked for fixtures kicking off within this, again after `predictionRecheck`,
        /// a few a tick so the allowance stays with live play.
        var predictionAhead: TimeInterval = 2 * 86_400
        var predictionRecheck: TimeInterval = 12 * 3600
        var predictionsPerTick = 3
    }

    let settings: Settings
    let client: APIFootballClient
    let matches: Matches
    let lease: FeedLease
    let now: @Sendable () -> Date
    let logger: Logger

    func run() async throws {
        // What the provider allows and when each kind of call is due, carried from tick to tick.
        let schedule = NIOLockedValueBox(
            PollSchedule(dayInterval: settings.dayInterval.seconds, liveInterval: settings.liveInterval.seconds))
        let pause = min(FeedLease.heartbeat, settings.liveInterval)
        await matches.database.repeatUntilShutdown {
            var current = schedule.withLockedValue { $0 }
            await tick(&current)
            schedule.withLockedValue { [current] in $0 = current }
            return pause
        }
    }

    /// Every instance asks for the lease on every tick (the holder renewing it), so another takes
    /// over within `FeedLease.takeover` of the holder dying; the holder marks the matches in play the
    /// provider stopped reporting, and calls the provider when a day sweep or the live tick is due.
    func tick(_ schedule: inout PollSchedule) async {
        let time = now()
        do {
            guard try await lease.acquire(at: time) else {
                // Another instance polls; should this one take over, it starts afresh.
                schedule = PollSchedule(dayInterval: schedule.dayInterval, liveInterval: schedule.liveInterval)
                return
            }
            // Whether the provider is up or not: a match it does not report is silent either way.
            try await matches.markSilent(at: time, after: settings.silentAfter.seconds)
            guard schedule.isDue(at: time) else { return }
            // Fixtures in play are taken from the detailed call below, so a goal never shows in the
            // score before its event does; those first seen already over come with their details once.
            var detailed: [Int] = []
            if schedule.isDaySweepDue(at: time) {
                let today = CalendarDay(containing: time)
                for day in [today, today.next] {
                    let answer = try await client.fixtures(on: day.description)
                    schedule.answered(remaining: answer.remaining, at: time)
                    let reports = followed(answer.matches)
                    detailed += reports.filter { MatchStatus.inPlay.contains($0.status) }.map(\.fixtureID)
                    let ingested = try await matches.ingest(reports.filter { !MatchStatus.inPlay.contains($0.status) }, at: now())
                    detailed += ingested.filter { $0.isNew && $0.match.status.isOver }.map(\.fixtureID)
                }
                schedule.sweptDays(at: time)
            }
            schedule.polledLive(at: time)
            let followedLive = try await matches.followedLive(at: time, lead: settings.lead)
            let live = followedLive + detailed.filter { !followedLive.contains($0) }
            if !live.isEmpty, schedule.mayCall(at: time) {
                let answer = try await client.fixtures(ids: live)
                schedule.answered(remaining: answer.remaining, at: time)
                try await matches.ingest(followed(answer.matches), at: now())
            }
            let predicting = try await matches.awaitingPrediction(
                at: time, ahead: settings.predictionAhead, recheck: settings.predictionRecheck, limit: settings.predictionsPerTick)
            for fixture in predicting where schedule.mayCall(at: time) {
                let answer = try await client.prediction(ofFixture: fixture)
                schedule.answered(remaining: answer.remaining, at: time)
                try await matches.predict(fixture: fixture, answer.prediction, at: now())
            }
        } catch APIFootballClient.Failure.rateLimited(let seconds) {
            logger.warning("football provider: rate limited, next call in \(seconds) s")
            schedule.rateLimited(retryAfterSeconds: seconds, at: time)
        } catch let failure as APIFootballClient.Failure {
            schedule.failed(at: time)
            logger.warning("football provider: \(failure); serving the last known state")
        } catch {
            schedule.failed(at: time)
            logger.warning("football poll failed: \(error)")
        }
    }

    private func followed(_ reports: [ReportedMatch]) -> [ReportedMatch] {
        settings.leagues.isEmpty ? reports : reports.filter { settings.leagues.contains($0.league.id) }
    }
}
