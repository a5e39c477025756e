import AuthService
import Configuration
import Foundation
import NIOHTTP1
import ServiceKit
import Logging
import OAuthStub
import ServiceKit
import ServiceKitTesting
import ServiceLifecycle

/// Auth on port 0 with a fresh store, optionally pointed at a running Facebook stand-in.
enum AuthHarness {
    static let builder = ModuleBuilder(.auth) { try await buildAuthService(reader: $0, dependencies: $1) }

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
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    static let appID = "huddle-test-app"

    static func with<T>(_ body: (StubProvider) async throws -> T) async throws -> T {
        let (ports, portInput) = AsyncStream<Int>.makeStream()
        let reader = ConfigReader(
            provider: EnvironmentVariablesProvider.settings(["oauthstub.http.port": "0", "oauthstub.appid": appID]))
        let app = buildOAuthStub(reader: reader, logger: Logger(label: "stub")) { portInput.yield($0) }
        let group = ServiceGroup(services: [app], logger: Logger(label: "stub"))
        let task = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        let stub = StubProvider(url: "http://127.0.0.1:\(port)", group: group, task: task)
        defer { Task { await group.triggerGracefulShutdown() } }
        return try await body(stub)
    }

    /// Auth settings that point the verifier at this stub.
    var authConfig: [String: String] {
        ["auth.oauth.facebook.url": url, "auth.oauth.facebook.appid": Self.appID, "auth.oauth.facebook.appsecret": "s3cret"]
    }

    struct Grant: Encodable {
        var userId: String
        var name: String
        var email: String?
        var appId: String?
        var expiresIn: Int?
    }

    /// A user token the stub will vouch for.
    func token(_ grant: Grant) async throws -> String {
        let response = try await TestClient(baseURL: url).post("/test/tokens", json: grant)
        return try response.decode([String: String].self)["accessToken"]!
    }
}
