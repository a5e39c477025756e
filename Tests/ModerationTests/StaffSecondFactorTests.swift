import Contracts
import Foundation
import HuddleEffects
import ServiceKitTesting
import Testing

@testable import AuthService

/// Where the deployment requires it, a moderator acts only from a session signed in with a second factor.
@Suite("Moderators and their second factor")
struct StaffSecondFactorTests {
    @Test("with auth.staff.second-factor required, a moderator signed in without a code cannot work the queue; with one, can")
    func moderatorNeedsCode() async throws {
        let clock = SettableClock(Date())
        let config = ["auth.staff.second-factor": "required"]
        try await ModerationHarness.with(config: config, effects: Effects(now: { clock.now })) { h in
            let admin = try await h.admin()
            let refused = try await h.moderation.call(ModerationAPI.cases, token: admin.accessToken)
            #expect(refused.status == 403 && refused.problem?.code == "SECOND_FACTOR_SETUP_REQUIRED")
            // A player is refused as a player, not told to set a second factor up.
            let player = try await h.player("Pat Player")
            #expect(try await h.moderation.call(ModerationAPI.cases, token: player.accessToken).problem?.code == "FORBIDDEN")

            let setup = try await h.auth.value(AuthAPI.setUpSecondFactor, token: admin.accessToken)
            let totp = TOTP(secret: try #require(Base32.decode(setup.secret)))
            _ = try await h.auth.value(
                AuthAPI.confirmSecondFactor, body: SecondFactorCode(code: totp.code(step: totp.step(at: clock.now))),
                token: admin.accessToken)
            clock.advance(by: 30)
            let password = LoginRequest(email: ModerationHarness.adminEmail, password: "correct horse battery")
            #expect(try await h.auth.call(AuthAPI.login, body: password).problem?.code == "SECOND_FACTOR_REQUIRED")
            var withCode = password
            withCode.code = totp.code(step: totp.step(at: clock.now))
            let signedIn = try await h.auth.value(AuthAPI.login, body: withCode)
            _ = try await expect(200, h.moderation.call(ModerationAPI.cases, token: signedIn.accessToken))
        }
    }
}
