import Contracts
import Foundation

/// Scorecard arithmetic and personal statistics, from cards alone.
enum Scoring {
    /// A player's line with total and to-par worked out from their strokes.
    static func line(
        playerId: RoundPlayerID, userId: UserID?, name: String, strokes: [Int: Int], holes: [ScorecardHole]
    ) -> ScorecardPlayer {
        let scores = holes.map { HoleScore(hole: $0.number, strokes: strokes[$0.number] ?? $0.par) }
        let total = scores.reduce(0) { $0 + $1.strokes }
        return ScorecardPlayer(
            playerId: playerId, userId: userId, name: name, scores: scores, total: total, toPar: total - holes.reduce(0) { $0 + $1.par })
    }

    static let strokesRange = ScoreUpdate.strokesRange

    /// A user's statistics over completed cards: rounds played, each course's record and average,
    /// and how each hole ended. Guests have no user and so no statistics.
    static func stats(of user: UserID, cards: [Scorecard]) -> PlayerStats {
        var counts = ScoreCounts()
        var byCourse: [CourseID: [(card: Scorecard, line: ScorecardPlayer)]] = [:]
        for card in cards where card.status == .completed {
            guard let line = card.players.first(where: { $0.userId == user }) else { continue }
            byCourse[card.courseId, default: []].append((card, line))
            let pars = Dictionary(uniqueKeysWithValues: card.holes.map { ($0.number, $0.par) })
            for score in line.scores { count(score.strokes, par: pars[score.hole] ?? score.strokes, into: &counts) }
        }
        let courses = byCourse.map { courseId, played -> CourseStats in
            // The best total; on a tie, the earlier round set the record.
            let best = played.min { ($0.line.total, $0.card.startedAt) < ($1.line.total, $1.card.startedAt) }!
            let average = Double(played.reduce(0) { $0 + $1.line.total }) / Double(played.count)
            return CourseStats(
                courseId: courseId, courseName: best.card.courseName, roundsPlayed: played.count,
                best: PersonalRecord(
                    total: best.line.total, toPar: best.line.toPar, date: best.card.finishedAt ?? best.card.startedAt, roundId: best.card.id
                ),
                averageTotal: (average * 100).rounded() / 100)
        }
        return PlayerStats(
            userId: user, roundsPlayed: byCourse.values.reduce(0) { $0 + $1.count },
            courses: courses.sorted { ($0.courseName, $0.courseId.description) < ($1.courseName, $1.courseId.description) },
            scores: counts)
    }

    private static func count(_ strokes: Int, par: Int, into counts: inout ScoreCounts) {
        if strokes == 1 {
            counts.aces += 1
            return
        }
        switch strokes - par {
        case ...(-2): counts.eagles += 1
        case -1: counts.birdies += 1
        case 0: counts.pars += 1
        case 1: counts.bogeys += 1
        default: counts.doubleBogeys += 1
        }
    }
}
