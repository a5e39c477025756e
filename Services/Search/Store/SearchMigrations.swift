import Contracts
import ServiceFeatures
import ServiceStore

/// Search's read model: one row per searchable place (game, team, course, venue) holding the
/// item's public JSON and the columns filters use, under a spatial index by sport and position —
/// SQLite's R*Tree (the sport its third dimension, `SportCode`), or on PostgreSQL a GiST index over
/// the sport and the position as a `point` (btree_gist; earlier versions used cube and earthdistance,
/// which migrations 1 and 6 still create). The key is
/// (id, kind), not (kind, id): an index led by `kind` would tempt a planner to read every game
/// instead of asking the spatial index.
enum SearchMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "places with a spatial index") { kind in
            let common = """
                CREATE TABLE places (
                    rid \(kind.autoIncrementPrimaryKey), kind TEXT NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL,
                    lat DOUBLE PRECISION NOT NULL, lng DOUBLE PRECISION NOT NULL, privacy TEXT NOT NULL, sport TEXT,
                    skill TEXT, age_group TEXT, gender TEXT, starts_at \(kind.timestamp), subs_needed INTEGER NOT NULL,
                    cancelled \(kind.boolean) NOT NULL, UNIQUE (id, kind))
                """
            switch kind {
            case .sqlite:
                return [
                    common,
                    "CREATE VIRTUAL TABLE places_geo USING rtree(rid, min_lat, max_lat, min_lng, max_lng)",
                ]
            case .postgres:
                return [
                    "CREATE EXTENSION IF NOT EXISTS cube",
                    "CREATE EXTENSION IF NOT EXISTS earthdistance",
                    common,
                    "CREATE INDEX places_earth ON places USING gist (ll_to_earth(lat, lng))",
                ]
            }
        },
        .inbox(version: 2),
        Migration(version: 3, name: "players by name") { kind in
            switch kind {
            case .sqlite:
                return [
                    "CREATE TABLE players (rid INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, name_key TEXT NOT NULL)",
                    // A trigram index answers substrings; the store ORs a query's trigrams to forgive typos.
                    "CREATE VIRTUAL TABLE players_fts USING fts5(name_key, content='players', content_rowid='rid', tokenize='trigram')",
                    "CREATE TRIGGER players_ai AFTER INSERT ON players BEGIN INSERT INTO players_fts(rowid, name_key) VALUES (new.rid, new.name_key); END",
                    """
                    CREATE TRIGGER players_au AFTER UPDATE ON players BEGIN
                        INSERT INTO players_fts(players_fts, rowid, name_key) VALUES ('delete', old.rid, old.name_key);
                        INSERT INTO players_fts(rowid, name_key) VALUES (new.rid, new.name_key);
                    END
                    """,
                ]
            case .postgres:
                return [
                    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
                    "CREATE TABLE players (id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL)",
                    "CREATE INDEX players_trigrams ON players USING gin (name_key gin_trgm_ops)",
                ]
            }
        },
        // What players hold, from purchases' events, for the `location` gate.
        .heldEntitlements(version: 4),
        // Teams and games moderators hid.
        .hiddenSubjects(version: 5),
        // Searches name a sport, so the spatial index narrows by it too: at 50 km in a million games
        // it handed over about 950 places of which a tenth were of the sport asked for, and each was read.
        Migration(version: 6, name: "the spatial index by sport") { kind in
            switch kind {
            case .sqlite:
                let code =
                    "CASE sport \(Sport.allCases.map { "WHEN '\($0.rawValue)' THEN \(SportCode.of($0))" }.joined(separator: " ")) ELSE \(SportCode.of(nil)) END"
                return [
                    "CREATE VIRTUAL TABLE places_at USING rtree(rid, min_lat, max_lat, min_lng, max_lng, min_sport, max_sport)",
                    "INSERT INTO places_at SELECT rid, lat, lat, lng, lng, \(code), \(code) FROM places",
                    "DROP TABLE places_geo",
                ]
            case .postgres:
                return [
                    "CREATE EXTENSION IF NOT EXISTS btree_gist",
                    "CREATE INDEX places_sport_earth ON places USING gist (sport, ll_to_earth(lat, lng))",
                    "DROP INDEX places_earth",
                ]
            }
        },
        // On PostgreSQL the index takes the position as a point in degrees, asked with the same boxes
        // as SQLite's R*Tree. Over earthdistance's cube (3-D, variable length, its box a cube around the
        // sphere) a 50 km search in a million games read ~66 index pages and took 1.2–1.5 ms to run and
        // 0.5–0.8 ms to plan; over the point, 29 pages, 0.6 ms and 0.13–0.22 ms.
        Migration(version: 7, name: "the spatial index over points") { kind in
            switch kind {
            case .sqlite: return []
            case .postgres:
                return [
                    "CREATE INDEX places_sport_point ON places USING gist (sport, point(lng, lat))",
                    "DROP INDEX places_sport_earth",
                ]
            }
        },
        // Games with no free slot, for `openSlots`; those indexed before are read off their documents.
        Migration(version: 8, name: "full games") { kind in
            let full =
                switch kind {
                case .sqlite: "json_extract(doc, '$.goingCount') >= json_extract(doc, '$.capacity')"
                case .postgres: "(doc::jsonb->>'goingCount')::int >= (doc::jsonb->>'capacity')::int"
                }
            return [
                "ALTER TABLE places ADD COLUMN is_full \(kind.boolean) NOT NULL DEFAULT FALSE",
                "UPDATE places SET is_full = COALESCE(\(full), FALSE) WHERE kind = 'game'",
            ]
        },
    ]
}

/// A sport's number in SQLite's spatial index, whose third dimension is the sport. Stored, so a new
/// sport takes the next number and none is ever renumbered.
enum SportCode {
    static func of(_ sport: Sport?) -> Int {
        switch sport {
        case nil: -1
        case .soccer: 0
        case .volleyball: 1
        case .softball: 2
        case .basketball: 3
        case .football: 4
        case .discGolf: 5
        case .cricket: 6
        case .tennis: 7
        case .hockey: 8
        case .other: 9
        }
    }

    /// Every number, for a search that names no sport.
    static let all = (of(nil), Sport.allCases.map(of).max() ?? 0)
}
