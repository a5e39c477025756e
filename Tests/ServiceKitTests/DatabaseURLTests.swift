import Configuration
import Contracts
import Foundation
import ServiceHTTP
import ServiceKitTesting
import Testing

/// A module's store URL and the password an operator's Secret gives it apart from the URL.
@Suite("A module's database URL")
struct DatabaseURLTests {
    static func url(_ settings: [String: String]) -> String {
        ConfigReader(provider: EnvironmentVariablesProvider.settings(settings)).databaseURL(for: .games)
    }

    @Test("a PostgreSQL URL without a password takes games.db.password, percent-encoded; the URL's own password wins")
    func password() throws {
        let joined = Self.url([
            "games.db.url": "postgres://huddle_games@huddle-pg-pooler-rw:5432/huddle_games?sslmode=require",
            "games.db.password": "p@ss:w/rd%",
        ])
        #expect(joined == "postgres://huddle_games:p%40ss%3Aw%2Frd%25@huddle-pg-pooler-rw:5432/huddle_games?sslmode=require")
        let parsed = try #require(URLComponents(string: joined)?.password)
        #expect(parsed == "p@ss:w/rd%")
        let own = "postgres://huddle_games:own@db:5432/huddle_games"
        #expect(Self.url(["games.db.url": own, "games.db.password": "other"]) == own)
    }

    @Test("SQLite and the default store ignore a password")
    func sqlite() {
        #expect(Self.url(["games.db.password": "secret"]) == "sqlite:data/games.sqlite")
        #expect(Self.url(["games.db.url": "sqlite::memory:", "games.db.password": "secret"]) == "sqlite::memory:")
    }
}
