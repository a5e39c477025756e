import Configuration
import Contracts
import Foundation
import NIOSSL
import ServiceHTTP
import ServiceKitTesting
import Testing

@testable import ServiceStore

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

    @Test("sslrootcert names the CA a PostgreSQL server is verified against; one that cannot be read stops the start with its path")
    func certificateAuthority() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ca-\(UUID().uuidString).crt").path
        let url = "postgres://huddle_games@db:5432/huddle_games?sslmode=verify-full&sslrootcert=\(file)"
        #expect(throws: DatabaseUnreachable.self) { try Database.certificateAuthority(url: url) }
        do {
            _ = try Database.certificateAuthority(url: url)
        } catch let refusal as DatabaseUnreachable {
            #expect(refusal.reason.contains(file))
        }
        FileManager.default.createFile(atPath: file, contents: Data("-----BEGIN CERTIFICATE-----\n".utf8))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let configuration = try #require(try Database.certificateAuthority(url: url))
        #expect(configuration.trustRoots == .file(file))
        #expect(configuration.certificateVerification == .fullVerification)
        #expect(try Database.certificateAuthority(url: "postgres://huddle_games@db:5432/huddle_games?sslmode=require") == nil)
    }
}
