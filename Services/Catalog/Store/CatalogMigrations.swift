import ServiceFeatures
import ServiceStore

/// Catalog's schema. Ids are lowercase UUID text; `name_key` is the lower-cased name that lists
/// sort and search on; coordinates are plain degrees.
enum CatalogMigrations {
    static let all: [Migration] = [
        Migration(version: 1, name: "teams, leagues, courses, venues, news") { kind in
            [
                """
                CREATE TABLE teams (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL, sport TEXT NOT NULL,
                    privacy TEXT NOT NULL, lat DOUBLE PRECISION NOT NULL, lng DOUBLE PRECISION NOT NULL, address TEXT,
                    age_group TEXT NOT NULL, gender TEXT NOT NULL, skill TEXT NOT NULL, manager_id TEXT NOT NULL,
                    created_at \(kind.timestamp) NOT NULL)
                """,
                "CREATE INDEX teams_name ON teams(name_key, id)",
                """
                CREATE TABLE memberships (
                    team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE, user_id TEXT NOT NULL,
                    role TEXT NOT NULL, created_at \(kind.timestamp) NOT NULL, PRIMARY KEY (team_id, user_id))
                """,
                "CREATE INDEX memberships_user ON memberships(user_id)",
                """
                CREATE TABLE leagues (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL, sport TEXT NOT NULL,
                    skill TEXT NOT NULL, age_group TEXT NOT NULL, gender TEXT NOT NULL, privacy TEXT NOT NULL,
                    lat DOUBLE PRECISION, lng DOUBLE PRECISION, address TEXT, manager_id TEXT NOT NULL,
                    created_at \(kind.timestamp) NOT NULL)
                """,
                "CREATE INDEX leagues_sport_name ON leagues(sport, name_key, id)",
                """
                CREATE TABLE league_teams (
                    league_id TEXT NOT NULL REFERENCES leagues(id) ON DELETE CASCADE,
                    team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
                    added_at \(kind.timestamp) NOT NULL, PRIMARY KEY (league_id, team_id))
                """,
                "CREATE INDEX league_teams_team ON league_teams(team_id)",
                """
                CREATE TABLE courses (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL, lat DOUBLE PRECISION NOT NULL,
                    lng DOUBLE PRECISION NOT NULL, address TEXT, website TEXT, created_at \(kind.timestamp) NOT NULL)
                """,
                "CREATE INDEX courses_name ON courses(name_key, id)",
                """
                CREATE TABLE holes (
                    course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE, number INTEGER NOT NULL,
                    par INTEGER NOT NULL, tee_lat DOUBLE PRECISION NOT NULL, tee_lng DOUBLE PRECISION NOT NULL,
                    basket_lat DOUBLE PRECISION NOT NULL, basket_lng DOUBLE PRECISION NOT NULL,
                    PRIMARY KEY (course_id, number))
                """,
                """
                CREATE TABLE venues (
                    id TEXT PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL, lat DOUBLE PRECISION NOT NULL,
                    lng DOUBLE PRECISION NOT NULL, address TEXT, sports TEXT NOT NULL, website TEXT,
                    created_at \(kind.timestamp) NOT NULL)
                """,
                "CREATE INDEX venues_name ON venues(name_key, id)",
                """
                CREATE TABLE news_articles (
                    id TEXT PRIMARY KEY, title TEXT NOT NULL, summary TEXT NOT NULL, url TEXT NOT NULL UNIQUE,
                    image_url TEXT, source TEXT NOT NULL, sport TEXT NOT NULL, published_at \(kind.timestamp) NOT NULL,
                    ingested_at \(kind.timestamp) NOT NULL)
                """,
                "CREATE INDEX news_published ON news_articles(published_at, id)",
                """
                CREATE TABLE bookmarks (
                    seq \(kind.autoIncrementPrimaryKey), user_id TEXT NOT NULL,
                    article_id TEXT NOT NULL REFERENCES news_articles(id) ON DELETE CASCADE,
                    created_at \(kind.timestamp) NOT NULL, UNIQUE (user_id, article_id))
                """,
            ]
        },
        .outbox(version: 2),
        .idempotency(version: 3),
        // One instance polls the news feed at a time, whichever holds the lease.
        .feedLeases(version: 4),
        // What players hold, from purchases' events, for the `location`, `join` and `leagues` gates.
        .inbox(version: 5),
        .heldEntitlements(version: 6),
        // Teams and leagues moderators hid.
        .hiddenSubjects(version: 7),
        .outboxTraceContext(version: 8),
        .outboxInTransactionOrder(version: 9),
        .outboxDelivery(version: 10),
        // Logos uploaded to media (`AttachedPicture` as JSON).
        Migration(version: 11, name: "logos") { _ in
            [
                "ALTER TABLE teams ADD COLUMN logo TEXT", "ALTER TABLE teams ADD COLUMN logo_owner_id TEXT",
                "ALTER TABLE leagues ADD COLUMN logo TEXT", "ALTER TABLE leagues ADD COLUMN logo_owner_id TEXT",
                "CREATE INDEX teams_by_logo_owner ON teams (logo_owner_id)",
                "CREATE INDEX leagues_by_logo_owner ON leagues (logo_owner_id)",
            ]
        },
        Migration(version: 12, name: "teams looking for players") { kind in
            ["ALTER TABLE teams ADD COLUMN recruiting \(kind.boolean) NOT NULL DEFAULT FALSE"]
        },
        Migration(version: 13, name: "venues' descriptions and postcodes") { _ in
            ["ALTER TABLE venues ADD COLUMN description TEXT", "ALTER TABLE venues ADD COLUMN postcode TEXT"]
        },
        // Leagues' requests to add a team another manager manages, until that manager answers.
        Migration(version: 14, name: "league requests") { kind in
            [
                """
                CREATE TABLE league_requests (
                    league_id TEXT NOT NULL, team_id TEXT NOT NULL, requested_at \(kind.timestamp) NOT NULL, PRIMARY KEY (league_id, team_id))
                """,
                "CREATE INDEX league_requests_team ON league_requests (team_id)",
            ]
        },
        // A hole may wait for its tee and basket to be surveyed (`Course.navigationAvailable`). SQLite
        // cannot drop a NOT NULL, so the table is built again.
        Migration(version: 15, name: "holes without positions") { kind in
            let positions = ["tee_lat", "tee_lng", "basket_lat", "basket_lng"]
            switch kind {
            case .postgres:
                return positions.map { "ALTER TABLE holes ALTER COLUMN \($0) DROP NOT NULL" }
            case .sqlite:
                return [
                    """
                    CREATE TABLE holes_surveyed (
                        course_id TEXT NOT NULL REFERENCES courses(id) ON DELETE CASCADE, number INTEGER NOT NULL,
                        par INTEGER NOT NULL, tee_lat DOUBLE PRECISION, tee_lng DOUBLE PRECISION,
                        basket_lat DOUBLE PRECISION, basket_lng DOUBLE PRECISION, PRIMARY KEY (course_id, number))
                    """,
                    "INSERT INTO holes_surveyed SELECT course_id, number, par, \(positions.joined(separator: ", ")) FROM holes",
                    "DROP TABLE holes", "ALTER TABLE holes_surveyed RENAME TO holes",
                ]
            }
        },
        // Which country an article is for and its language (`GET /v1/news?country=&language=`).
        Migration(version: 16, name: "news for a country") { _ in
            [
                "ALTER TABLE news_articles ADD COLUMN country TEXT", "ALTER TABLE news_articles ADD COLUMN language TEXT",
                "CREATE INDEX news_by_country ON news_articles (country, language, published_at)",
            ]
        },
        // The open-data record an imported venue came from (`casey:R0042`), so a second import updates it.
        Migration(version: 17, name: "venues from open data") { _ in
            ["ALTER TABLE venues ADD COLUMN source TEXT", "CREATE UNIQUE INDEX venues_by_source ON venues (source)"]
        },
        // Versions raised by the database on any change of a team (its members, leagues and the
        // leagues' asks included) or a course (its holes included), for conditional reads.
        .rowVersions(
            version: 18, table: "teams",
            children: [
                (table: "memberships", column: "team_id"), (table: "league_teams", column: "team_id"),
                (table: "league_requests", column: "team_id"),
            ]),
        .rowVersions(version: 19, table: "courses", children: [(table: "holes", column: "course_id")]),
    ]
}
