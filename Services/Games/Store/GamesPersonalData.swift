import Contracts
import SQLKit
import ServiceFeatures

/// What games holds of a player, for their export: their places in games' rosters, the games they
/// organise, and the disc golf rounds they played with every score.
enum GamesPersonalData {
    static let export = PersonalDataExport([
        PersonalDataSection(
            "gamePlaces",
            columns: [
                .text("game_id"), .text("sport"), .time("starts_at"), .text("address"), .text("status"), .boolean("substitute"),
                .integer("queue_number"), .time("updated_at"),
            ]
        ) { user in
            """
            SELECT r.game_id, g.sport, g.starts_at, g.address, r.status, r.substitute, r.queue_number, r.updated_at
            FROM roster r JOIN games g ON g.id = r.game_id WHERE r.user_id = \(bind: user.description) ORDER BY g.starts_at, g.id
            """
        },
        PersonalDataSection(
            "organisedGames",
            columns: [
                .text("game_id"), .text("kind"), .text("status"), .text("sport"), .time("starts_at"), .text("address"),
                .text("description"), .time("created_at"),
            ]
        ) { user in
            """
            SELECT id AS game_id, kind, status, sport, starts_at, address, description, created_at FROM games
            WHERE organizer_id = \(bind: user.description) ORDER BY starts_at, id
            """
        },
        PersonalDataSection(
            "rounds",
            columns: [
                .text("round_id"), .text("course_name"), .text("status"), .time("started_at"), .time("finished_at"), .text("name"),
                .integer("seat"),
            ]
        ) { user in
            """
            SELECT r.id AS round_id, r.course_name, r.status, r.started_at, r.finished_at, p.name, p.seat
            FROM round_players p JOIN rounds r ON r.id = p.round_id WHERE p.user_id = \(bind: user.description)
            ORDER BY r.started_at, r.id
            """
        },
        PersonalDataSection("scores", columns: [.text("round_id"), .integer("hole"), .integer("strokes")]) { user in
            """
            SELECT s.round_id, s.hole, s.strokes FROM round_scores s
            JOIN round_players p ON p.round_id = s.round_id AND p.player_id = s.player_id
            WHERE p.user_id = \(bind: user.description) ORDER BY s.round_id, s.hole
            """
        },
    ])
}
