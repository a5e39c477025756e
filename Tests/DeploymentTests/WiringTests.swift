import Contracts
import DeploymentCheck
import Foundation
import HuddleModules
import Testing

/// docker-compose.yml and init.sql are checked against `Wiring`, not trusted.
@Suite("Deployment files follow the wiring")
struct WiringTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func text(_ path: String) throws -> String { try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) }

    static func findings(compose: String, initSQL: String) throws -> [String] {
        DeploymentCheck.findings(compose: try ComposeFile(yaml: compose), initSQL: initSQL, modules: HuddleModules.available)
    }

    @Test("docker-compose.yml and init.sql agree with the wiring")
    func repositoryFilesAgree() throws {
        #expect(try Self.findings(compose: Self.text("docker-compose.yml"), initSQL: Self.text("deploy/postgres/init.sql")) == [])
    }

    @Test("a subscriber missing from compose is caught")
    func missingSubscriber() throws {
        let compose = try Self.text("docker-compose.yml")
        let edited = compose.replacingOccurrences(
            of: "CATALOG_EVENTS_SUBSCRIBERS: games,search,chat,notify", with: "CATALOG_EVENTS_SUBSCRIBERS: games,chat,notify")
        #expect(edited != compose)
        let findings = try Self.findings(compose: edited, initSQL: Self.text("deploy/postgres/init.sql"))
        #expect(findings.count == 1)
        let expected = "CATALOG_EVENTS_SUBSCRIBERS is 'games,chat,notify' but should be chat,games,notify,search"
        #expect(findings.first?.contains(expected) == true)
    }

    @Test("a wrong address, a missing database and a gateway without a module are caught")
    func otherMismatches() throws {
        let compose = try Self.text("docker-compose.yml")
            .replacingOccurrences(of: "CATALOG_URL: http://catalog:8080", with: "CATALOG_URL: http://catalog:9000")
            .replacingOccurrences(of: "GATEWAY_MODULES: auth,catalog,games,search", with: "GATEWAY_MODULES: auth,catalog,games")
        let initSQL = try Self.text("deploy/postgres/init.sql")
            .replacingOccurrences(of: "CREATE DATABASE huddle_games OWNER huddle_games;", with: "")
        let findings = try Self.findings(compose: compose, initSQL: initSQL)
        #expect(findings.contains { $0.hasPrefix("games: CATALOG_URL is 'http://catalog:9000'") })
        #expect(findings.contains { $0.hasPrefix("search: CATALOG_URL") })
        #expect(findings.contains { $0.hasPrefix("gateway: GATEWAY_MODULES") })
        #expect(findings.contains { $0.contains("CREATE DATABASE huddle_games") })
    }

    @Test("a module without its own internal key, or holding another's, is caught")
    func internalKeys() throws {
        let initSQL = try Self.text("deploy/postgres/init.sql")
        let compose = try Self.text("docker-compose.yml")
        let withoutKey = compose.replacingOccurrences(
            of: "      CHAT_INTERNAL_KEY: ${CHAT_INTERNAL_KEY:?set CHAT_INTERNAL_KEY (huddle internal-keys)}\n", with: "")
        #expect(withoutKey != compose)
        #expect(
            try Self.findings(compose: withoutKey, initSQL: initSQL) == [
                "chat: CHAT_INTERNAL_KEY must come from ${CHAT_INTERNAL_KEY}: it signs chat's internal calls"
            ])
        let sharing = compose.replacingOccurrences(
            of: "      CHAT_INTERNAL_KEY: ${CHAT_INTERNAL_KEY:?set CHAT_INTERNAL_KEY (huddle internal-keys)}\n",
            with:
                "      CHAT_INTERNAL_KEY: ${CHAT_INTERNAL_KEY:?set CHAT_INTERNAL_KEY (huddle internal-keys)}\n      AUTH_INTERNAL_KEY: ${AUTH_INTERNAL_KEY}\n"
        )
        #expect(
            try Self.findings(compose: sharing, initSQL: initSQL) == [
                "chat: holds AUTH_INTERNAL_KEY, auth's key, and could speak as auth"
            ])
    }

    @Test("a database password compose would fill in empty is caught")
    func optionalPassword() throws {
        let compose = try Self.text("docker-compose.yml")
            .replacingOccurrences(of: "${CHAT_DB_PASSWORD:?set CHAT_DB_PASSWORD}@", with: "${CHAT_DB_PASSWORD}@")
        let findings = try Self.findings(compose: compose, initSQL: Self.text("deploy/postgres/init.sql"))
        #expect(findings.count == 1 && findings.first?.hasPrefix("chat: CHAT_DB_URL must require its password") == true, "\(findings)")
    }

    @Test("compose's ${…} references are filled in as docker compose fills them")
    func interpolation() throws {
        let variables = ["SET": "value", "EMPTY": ""]
        #expect(try ComposeFile.interpolate("a${SET}b", with: variables) == "avalueb")
        #expect(try ComposeFile.interpolate("${EMPTY:-fallback}|${EMPTY-unused}|${UNSET-used}", with: variables) == "fallback||used")
        #expect(try ComposeFile.interpolate("${UNSET:-http://stand-in:8080}", with: variables) == "http://stand-in:8080")
        #expect(try ComposeFile.interpolate("$$HOME ${SET:?needed}", with: variables) == "$HOME value")
        #expect(throws: ComposeFile.MissingVariable.self) { try ComposeFile.interpolate("${EMPTY:?set EMPTY}", with: variables) }
    }
}
