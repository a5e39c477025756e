import Contracts
import Foundation

/// Scorecard arithmetic and personal statistics, from cards alone.
enum Scoring {
    /// A player's line over every hole of the round: the strokes recorded, none on a hole not yet
    /// played, with total and to-par over the holes played.
    static func line(
        playerId: RoundPlayerID, userId: UserID?, name: String, strokes: [Int: Int], holes: [ScorecardHole]
    ) -> ScorecardPlayer {
        ScorecardPlayer(
            playerId: playerId, userId: userId, name: name, scores: holes.map { HoleScore(hole: $0.number, strokes: strokes[$0.number]) },
            holes: holes)
    }

    static let strokesRange = ScoreUpdate.strokesRange

    /// A user's statistics over completed cards: rounds played, each course's record and average,
    /// and how each hole ended. Only holes played count: a round finished after three holes adds
    /// three holes to the counts, and (not being a whole round) sets no record and no average.
    /// Guests have no user and so no statistics.
    static func stats(of user: UserID, cards: [Scorecard]) -> PlayerStats {
        var counts = ScoreCounts()
        var roundsPlayed = 0
        var byCourse: [CourseID: [(card: Scorecard, line: ScorecardPlayer)]] = [:]
        for card in cards where card.status == .completed {
            guard let line = card.players.first(where: { $0.userId == user }), line.holesPlayed > 0 else { continue }
            roundsPlayed += 1
            if line.hasPlayedEveryHole { byCourse[card.courseId, default: []].append((card, line)) }
            let pars = Dictionary(card.holes.map { ($0.number, $0.par) }, uniquingKeysWith: { first, _ in first })
            for score in line.scores {
                guard let strokes = score.strokes else { continue }
                count(strokes, par: pars[score.hole] ?? strokes, into: &counts)
            }
        }
        let courses = byCourse.compactMap { courseId, played -> CourseStats? in
            // The best total; on a tie, the earlier round set the record.
            guard let best = played.min(by: { ($0.line.total, $0.card.startedAt) < ($1.line.total, $1.card.startedAt) }) else {
                return nil
            }
            let average = Double(played.reduce(0) { $0 + $1.line.total }) / Double(played.count)
            return CourseStats(
                courseId: courseId, courseName: best.card.courseName, roundsPlayed: played.count,
                best: PersonalRecord(
                    total: best.line.total, toPar: best.line.toPar, date: best.card.finishedAt ?? best.card.startedAt, roundId: best.card.id
                ),
                averageTotal: (average * 100).rounded() / 100)
        }
        return PlayerStats(
            userId: user, roundsPlayed: roundsPlayed,
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
