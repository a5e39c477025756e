import AuthService
import Configuration
import Contracts
import Foundation
import Logging
import NIOHTTP1
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting

/// Auth on port 0 with a fresh store, optionally pointed at a running Facebook stand-in.
enum AuthHarness {
    static let builder = ModuleBuilder.auth

    static func with<T>(
        store: TestStore = .sqlite, config: [String: String] = [:], body: (TestClient, TestStack) async throws -> T
    ) async throws -> T {
        try await TestStack.with([builder], store: store, config: config) { stack in
            try await body(stack.client(.auth), stack)
        }
    }
}

/// The Facebook stand-in, running for one test.
struct StubProvider {
    let url: String

    static let appID = "huddle-test-app"

    static func with<T>(_ body: (StubProvider) async throws -> T) async throws -> T {
        let reader = ConfigReader(
            provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0", "standin.appid": appID]))
        return try await withServerOnPort0({ onListening in
            buildProviderStandIns(reader: reader, logger: Logger(label: "stub"), onListening: onListening)
        }) { url in try await body(StubProvider(url: url)) }
    }

    /// Auth settings that point the verifier at this stub.
    var authConfig: [String: String] {
        // Generous timeouts: with the whole suite starting at once on a small machine, connecting to
        // the stand-in and its answer can each take longer than the defaults. A provider that is down
        // is tested with refused connections and the default timeouts.
        [
            "auth.oauth.facebook.url": url, "auth.oauth.facebook.appid": Self.appID, "auth.oauth.facebook.appsecret": "s3cret",
            "auth.oauth.facebook.timeout.ms": "15000", "providers.connect.ms": "15000",
        ]
    }

    struct Grant: Encodable {
        var userId: String
        var name: String
        var email: String?
        var appId: String?
        var expiresIn: Int?
        var pictureUrl: String?
    }

    /// A user token the stub will vouch for.
    func token(_ grant: Grant) async throws -> String {
        let response = try await TestClient(baseURL: url).raw(.POST, "/test/tokens", json: grant)
        return try response.decode([String: String].self)["accessToken"]!
    }
}
