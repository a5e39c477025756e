import Configuration
import Contracts
import Foundation
import HuddleModules
import Logging
import NIOHTTP1
import ServiceKit
import ServiceKitTesting
import Testing

/// The whole stack as `huddle` runs it (one process, each module on its own port, real HTTP),
/// on port 0, driven only through the gateway.
@Suite("Stack through the gateway")
struct StackTests {
    static func withStack<T>(store: TestStore, body: (TestClient) async throws -> T) async throws -> T {
        var settings = ["auth.bcrypt.cost": "4", "gateway.modules": "auth"]
        for module in HuddleModules.available {
            settings["\(module.rawValue).http.port"] = "0"
            settings["\(module.rawValue).db.url"] = try await store.freshDatabaseURL()
        }
        let stack = try await EmbeddedStack.start(
            modules: HuddleModules.available, reader: ConfigReader(provider: EnvironmentVariablesProvider.settings(settings)),
            internalToken: TestStack.internalToken, logger: Logger(label: "stack-test"))
        do {
            let result = try await body(TestClient(baseURL: stack.url(of: .gateway)))
            try await stack.stop()
            return result
        } catch {
            try? await stack.stop()
            throw error
        }
    }

    @Test("register, sign in, read my profile, refresh, sign out", arguments: TestStore.all)
    func sessionLifecycle(store: TestStore) async throws {
        try await Self.withStack(store: store) { gateway in
            let registered = try await gateway.register(name: "Stack Player", email: "stack@example.com", password: "stack password 1")
            let login = try await gateway.post("/v1/auth/login", json: LoginRequest(email: "stack@example.com", password: "stack password 1"))
            #expect(login.status == 200)
            let session = try login.decode(Session.self)
            #expect(session.user.id == registered.user.id)

            let me = try await gateway.get("/v1/users/me", token: session.accessToken)
            #expect(me.status == 200)
            #expect(try me.decode(MyProfile.self).email == "stack@example.com")
            #expect(me.header("X-Request-Id") != nil)

            let refreshed = try await gateway.post("/v1/auth/refresh", json: RefreshRequest(refreshToken: session.refreshToken))
            #expect(refreshed.status == 200)
            let next = try refreshed.decode(Session.self)

            #expect(try await gateway.post("/v1/auth/logout", token: next.accessToken).status == 204)
            #expect(try await gateway.get("/v1/users/me", token: next.accessToken).status == 401)
            #expect(try await gateway.post("/v1/auth/refresh", json: RefreshRequest(refreshToken: next.refreshToken)).status == 401)

            let health = try await gateway.get("/health")
            #expect(health.status == 200)
            #expect(try await gateway.get("/.well-known/jwks.json").status == 200)
        }
    }
}
