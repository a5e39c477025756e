import ServiceKit

/// Search's read model: one row per searchable place (game, team, course, venue) holding the
/// item's public JSON and the columns filters use, under a spatial index — SQLite's R*Tree, or on
/// PostgreSQL a GiST index over `ll_to_earth` (the cube and earthdistance extensions).
enum SearchMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "places with a spatial index") { kind in
            let common = """
                CREATE TABLE places (
                    rid \(kind.autoIncrementPrimaryKey), kind TEXT NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL,
                    lat DOUBLE PRECISION NOT NULL, lng DOUBLE PRECISION NOT NULL, privacy TEXT NOT NULL, sport TEXT,
                    skill TEXT, age_group TEXT, gender TEXT, starts_at \(kind.timestamp), subs_needed INTEGER NOT NULL,
                    cancelled \(kind.boolean) NOT NULL, UNIQUE (kind, id))
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
    ]
}
