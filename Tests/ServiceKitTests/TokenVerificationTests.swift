import AuthService
import Contracts
import Foundation
import HuddleEffects
import Hummingbird
import NIOHTTP1
import ServiceClients
import ServiceHTTP
import ServiceKitTesting
import Testing

/// A service other than auth verifying tokens the way every module does: auth's JWKS over
/// internal HTTP, and the revoked-session feed polled in the background.
@Suite("Token verification in other services")
struct TokenVerificationTests {
    static let auth = ModuleBuilder.auth

    /// A minimal module with one protected route, wired like every real one.
    static let protectedModule = ModuleBuilder(.catalog) { reader, dependencies in
        let verifier = TokenVerifier(source: AuthKeys(dependencies: dependencies), now: Effects.system.now)
        let router = Router<HuddleRequestContext>.huddle(module: .catalog, verifier: verifier, dependencies: dependencies)
        router.group("v1/whoami", context: AuthenticatedContext.self).get { _, context in context.userID.description }
        var app = Application(
            router: router, configuration: reader.serverConfiguration(for: .catalog),
            onServerRunning: dependencies.announce(.catalog), logger: dependencies.logger)
        app.addServices(RevocationPoller(verifier: verifier, interval: .milliseconds(200), logger: dependencies.logger))
        return app
    }

    @Test("a token from auth is accepted elsewhere, and refused within a second of logout", arguments: TestStore.all)
    func revocationReachesOtherServices(store: TestStore) async throws {
        try await TestStack.with([Self.auth, Self.protectedModule], store: store) { stack in
            let session = try await stack.client(.auth).register()
            let other = stack.client(.catalog)
            let before = try await other.raw(.GET, "/v1/whoami", token: session.accessToken)
            #expect(before.status == 200)
            #expect(before.text == session.user.id.description)
            #expect(try await other.raw(.GET, "/v1/whoami").status == 401)

            #expect(try await stack.client(.auth).call(AuthAPI.logout, token: session.accessToken).status == 204)
            let loggedOut = ContinuousClock.now
            #expect(try await eventually { try await other.raw(.GET, "/v1/whoami", token: session.accessToken).status == 401 })
            // The poll runs every 200 ms here, so on a quiet machine this takes a fraction of a
            // second; the bound leaves room for one saturated by the whole suite running in
            // parallel, and still proves the token is refused long before it expires (15 min).
            #expect(ContinuousClock.now - loggedOut < .seconds(10))
        }
    }

    @Test("when auth cannot be reached for keys, protected routes answer 503, not 500")
    func authDown() async throws {
        try await TestStack.with([Self.auth]) { authStack in
            let session = try await authStack.client(.auth).register()
            // A module whose auth address points nowhere.
            let lonely = try await TestStack.start([Self.protectedModule], config: ["auth.url": "http://127.0.0.1:1"])
            lonely.runner.directory.set(.auth, url: "http://127.0.0.1:1")
            let response = try await lonely.client(.catalog).raw(.GET, "/v1/whoami", token: session.accessToken)
            await lonely.stop()
            #expect(response.status == 503)
        }
    }
}
