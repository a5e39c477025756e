import ServiceKit

/// Games' schema. Ids are lowercase UUID text; team names are copied from catalog (and kept current
/// by its events) so lists need no call to catalog; `queue_number` orders the waiting list.
enum GamesMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "games and rosters") { kind in
            [
                """
                CREATE TABLE games (
                    id TEXT PRIMARY KEY, kind TEXT NOT NULL, status TEXT NOT NULL,
                    team_id TEXT, team_name TEXT, league_id TEXT, home_team_id TEXT, home_team_name TEXT,
                    away_team_id TEXT, away_team_name TEXT, organizer_id TEXT NOT NULL, starts_at \(kind.timestamp) NOT NULL,
                    sport TEXT NOT NULL, privacy TEXT NOT NULL, age_group TEXT NOT NULL, gender TEXT NOT NULL, skill TEXT NOT NULL,
                    capacity INTEGER, subs_needed INTEGER NOT NULL, lat DOUBLE PRECISION NOT NULL, lng DOUBLE PRECISION NOT NULL,
                    address TEXT, description TEXT, created_at \(kind.timestamp) NOT NULL)
                """,
                "CREATE INDEX games_team ON games(team_id, starts_at)",
                "CREATE INDEX games_home_team ON games(home_team_id, starts_at)",
                "CREATE INDEX games_away_team ON games(away_team_id, starts_at)",
                "CREATE INDEX games_organizer ON games(organizer_id, starts_at)",
                """
                CREATE TABLE roster (
                    game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE, user_id TEXT NOT NULL,
                    status TEXT NOT NULL, substitute \(kind.boolean) NOT NULL, queue_number INTEGER,
                    updated_at \(kind.timestamp) NOT NULL, PRIMARY KEY (game_id, user_id))
                """,
                "CREATE INDEX roster_user ON roster(user_id)",
            ]
        },
        .outbox(version: 2),
        .idempotency(version: 3),
        .inbox(version: 4),
    ]
}
