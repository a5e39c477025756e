import Contracts
import Foundation
import HuddleEffects
import Logging
import NIOHTTP1
import SQLKit
import ServiceKitTesting
import ServiceStore
import Testing

@testable import GamesService

/// Cards started before unplayed holes had no score were filled with par on every hole. Migration 8
/// keeps only the scores players recorded, so those cards read as played so far.
@Suite("Scorecards started at par, migrated")
struct ScorecardMigrationTests {
    static let logger = Logger.quiet("scorecard-migration-test")

    @Test("holes nobody scored lose their par; recorded scores, pars included, stay", arguments: TestStore.all)
    func migration(store: TestStore) async throws {
        try await store.withDatabase(logger: Self.logger) { database in
            try await database.migrate(GamesMigrations.all.filter { $0.version <= 7 }, logger: Self.logger)
            let round = RoundID(), player = RoundPlayerID()
            try await database.transaction { sql in
                // As the old code wrote it: three holes at par, then the player recorded 2 on hole 1
                // and a par (3) on hole 2.
                try await sql.raw(
                    """
                    INSERT INTO rounds (id, course_id, course_name, status, version, current_hole, started_by, started_at)
                    VALUES (\(bind: round.description), \(bind: CourseID().description), 'Rakke', 'ongoing', 2, 2,
                    \(bind: UserID().description), \(bind: Date()))
                    """
                ).run()
                for (hole, par) in [(1, 3), (2, 3), (3, 4)] {
                    try await sql.raw(
                        "INSERT INTO round_holes (round_id, number, par) VALUES (\(bind: round.description), \(bind: hole), \(bind: par))"
                    ).run()
                }
                try await sql.raw(
                    "INSERT INTO round_players (round_id, player_id, name, seat) VALUES (\(bind: round.description), \(bind: player.description), 'Ann', 0)"
                ).run()
                for (hole, strokes) in [(1, 2), (2, 3), (3, 4)] {
                    try await sql.raw(
                        "INSERT INTO round_scores (round_id, player_id, hole, strokes) VALUES (\(bind: round.description), \(bind: player.description), \(bind: hole), \(bind: strokes))"
                    ).run()
                }
                for (version, hole, strokes) in [(1, 1, 2), (2, 2, 3)] {
                    try await sql.raw(
                        """
                        INSERT INTO round_changes (round_id, version, kind, player_id, hole, strokes, changed_at)
                        VALUES (\(bind: round.description), \(bind: version), 'score', \(bind: player.description), \(bind: hole),
                        \(bind: strokes), \(bind: Date()))
                        """
                    ).run()
                }
            }
            try await database.migrate(GamesMigrations.all, logger: Self.logger)
            let card = try #require(
                try await database.read { sql in try await SQLRoundStore(now: Effects.system.now).card(round, on: sql) })
            let line = try #require(card.players.first)
            #expect(line.scores.map(\.strokes) == [2, 3, nil])
            #expect(line.total == 5 && line.toPar == -1 && line.holesPlayed == 2)
        }
    }
}
