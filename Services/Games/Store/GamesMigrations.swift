import ServiceFeatures
import ServiceStore

/// Games' schema. Ids are lowercase UUID text; team names are copied from catalog (and kept current
/// by its events) so lists need no call to catalog; `queue_number` orders the waiting list. A
/// round copies its course's holes and pars, so later course edits do not change it.
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
        Migration(version: 5, name: "disc golf rounds") { kind in
            [
                """
                CREATE TABLE rounds (
                    id TEXT PRIMARY KEY, course_id TEXT NOT NULL, course_name TEXT NOT NULL, status TEXT NOT NULL,
                    version INTEGER NOT NULL, current_hole INTEGER NOT NULL, started_by TEXT NOT NULL,
                    started_at \(kind.timestamp) NOT NULL, finished_at \(kind.timestamp))
                """,
                """
                CREATE TABLE round_holes (
                    round_id TEXT NOT NULL REFERENCES rounds(id) ON DELETE CASCADE, number INTEGER NOT NULL,
                    par INTEGER NOT NULL, PRIMARY KEY (round_id, number))
                """,
                """
                CREATE TABLE round_players (
                    round_id TEXT NOT NULL REFERENCES rounds(id) ON DELETE CASCADE, player_id TEXT NOT NULL,
                    user_id TEXT, name TEXT NOT NULL, seat INTEGER NOT NULL, PRIMARY KEY (round_id, player_id))
                """,
                "CREATE INDEX round_players_user ON round_players(user_id, round_id)",
                """
                CREATE TABLE round_scores (
                    round_id TEXT NOT NULL REFERENCES rounds(id) ON DELETE CASCADE, player_id TEXT NOT NULL,
                    hole INTEGER NOT NULL, strokes INTEGER NOT NULL, PRIMARY KEY (round_id, player_id, hole))
                """,
                // Every change with the version it produced: what a reconnecting device missed.
                """
                CREATE TABLE round_changes (
                    round_id TEXT NOT NULL REFERENCES rounds(id) ON DELETE CASCADE, version INTEGER NOT NULL,
                    kind TEXT NOT NULL, player_id TEXT, hole INTEGER, strokes INTEGER,
                    changed_at \(kind.timestamp) NOT NULL, PRIMARY KEY (round_id, version))
                """,
            ]
        },
        Migration(version: 6, name: "professional matches") { kind in
            [
                // The match as last reported (its wire JSON in `body`), with what lists filter on.
                """
                CREATE TABLE matches (
                    id TEXT PRIMARY KEY, fixture_id INTEGER NOT NULL UNIQUE, league_id INTEGER NOT NULL,
                    kickoff \(kind.timestamp) NOT NULL, status TEXT NOT NULL, version INTEGER NOT NULL,
                    body TEXT NOT NULL, updated_at \(kind.timestamp) NOT NULL)
                """,
                "CREATE INDEX matches_kickoff ON matches(kickoff, id)",
                "CREATE INDEX matches_status ON matches(status)",
                // Every version as it was: corrections (a goal cancelled by VAR) are new versions.
                """
                CREATE TABLE match_changes (
                    match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE, version INTEGER NOT NULL,
                    body TEXT NOT NULL, changed_at \(kind.timestamp) NOT NULL, PRIMARY KEY (match_id, version))
                """,
                // Which instance polls the provider, until when: one poller per deployment.
                """
                CREATE TABLE feed_leases (
                    name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at \(kind.timestamp) NOT NULL)
                """,
            ]
        },
        Migration(version: 7, name: "games' time zones") { _ in ["ALTER TABLE games ADD COLUMN time_zone TEXT"] },
        // Cards used to start with every hole at par; a hole nobody recorded a score on was not played.
        Migration(version: 8, name: "unplayed holes have no score") { _ in
            [
                """
                DELETE FROM round_scores WHERE NOT EXISTS (
                    SELECT 1 FROM round_changes AS c WHERE c.round_id = round_scores.round_id AND c.kind = 'score'
                    AND c.player_id = round_scores.player_id AND c.hole = round_scores.hole)
                """
            ]
        },
        // What players hold, from purchases' events, for the `location` and `join` gates.
        .heldEntitlements(version: 9),
        // Games moderators hid.
        .hiddenSubjects(version: 10),
        .outboxTraceContext(version: 11),
        .outboxInTransactionOrder(version: 12),
        .outboxDelivery(version: 13),
        // When the provider last reported each match, changed or not: a match in play it stops
        // reporting is marked silent (`MatchRules.silenced`).
        Migration(version: 14, name: "matches' last report") { kind in ["ALTER TABLE matches ADD COLUMN reported_at \(kind.timestamp)"] },
        // When each game's non-responders were last reminded on demand, so it is once per `games.remind.every`.
        Migration(version: 15, name: "reminders asked for") { kind in
            ["CREATE TABLE rsvp_reminders (game_id TEXT PRIMARY KEY, asked_at \(kind.timestamp) NOT NULL)"]
        },
        // A pick-up game's players without accounts (`Game.alreadyGoing`).
        Migration(version: 16, name: "players already going") { _ in
            ["ALTER TABLE games ADD COLUMN already_going INTEGER NOT NULL DEFAULT 0"]
        },
        // The ground a game is played at, and its games by time.
        Migration(version: 17, name: "games at venues") { _ in
            ["ALTER TABLE games ADD COLUMN venue_id TEXT", "CREATE INDEX games_by_venue ON games (venue_id, starts_at, id)"]
        },
        // The weekly series a game belongs to (`Game.seriesId`, its first game's id), and its games by time.
        Migration(version: 18, name: "series of games") { _ in
            ["ALTER TABLE games ADD COLUMN series_id TEXT", "CREATE INDEX games_by_series ON games (series_id, starts_at)"]
        },
        // Rounds on a course not in catalog's list (`Scorecard.courseUnlisted`).
        Migration(version: 19, name: "rounds on unlisted courses") { kind in
            ["ALTER TABLE rounds ADD COLUMN course_unlisted \(kind.boolean) NOT NULL DEFAULT FALSE"]
        },
        // When the provider was last asked for each match's prediction (`Match.prediction`).
        Migration(version: 20, name: "match predictions asked") { kind in
            ["ALTER TABLE matches ADD COLUMN prediction_asked_at \(kind.timestamp)"]
        },
        // A game's version, raised by the database on any change of it or its roster (conditional reads).
        .rowVersions(version: 21, table: "games", children: [(table: "roster", column: "game_id")]),
    ]
}
