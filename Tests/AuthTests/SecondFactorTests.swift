import Contracts
import Foundation
import HuddleEffects
import Logging
import SQLKit
import ServiceHTTP
import ServiceKitTesting
import ServiceStore
import Testing

@testable import AuthService

/// A second factor (TOTP) with recovery codes, and staff who must use one where the deployment says so.
@Suite("Second factor")
struct SecondFactorTests {
    @Test("TOTP makes RFC 6238's SHA-1 codes (the last six digits of its test vectors) and takes one step of drift")
    func rfc6238() throws {
        let totp = TOTP(secret: Data("12345678901234567890".utf8))
        let vectors: [(TimeInterval, String)] = [
            (59, "287082"), (1_111_111_109, "081804"), (1_111_111_111, "050471"), (1_234_567_890, "005924"), (2_000_000_000, "279037"),
            (20_000_000_000, "353130"),
        ]
        for (time, code) in vectors { #expect(totp.code(step: totp.step(at: Date(timeIntervalSince1970: time))) == code) }
        let now = Date(timeIntervalSince1970: 1_111_111_111)
        #expect(totp.matchingStep(of: "081804", at: now) == totp.step(at: now) - 1)
        #expect(totp.matchingStep(of: "000000", at: now) == nil)
        #expect(Base32.decode(Base32.encode(Data("12345678901234567890".utf8))) == Data("12345678901234567890".utf8))
        #expect(Base32.encode(Data("12345678901234567890".utf8)) == "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
    }

    @Test("the store keeps the authenticator's secret sealed: another key cannot make its codes", arguments: TestStore.all)
    func secretSealed(store: TestStore) async throws {
        let logger = Logger.quiet("second-factor-test")
        try await store.withDatabase(logger: logger) { database in
            try await database.migrate(AuthMigrations.all, logger: logger)
            let user = UserID(), now = Date()
            try await database.transaction { sql in
                try await sql.insert(into: "users").columns("id", "email", "name", "created_at")
                    .values(SQLBind(user.description), SQLBind("sealed-\(user)@example.com"), SQLBind("Sealed"), SQLBind(now)).run()
            }
            func factors(key: String) -> SecondFactors {
                SecondFactors(
                    database: database, users: SQLUserStore(), store: SQLSecondFactorStore(),
                    sealer: TokenSealer(derivedFrom: key, purpose: "second factor secrets"), now: { now })
            }
            let setup = try await factors(key: "one").setUp(for: user)
            let stored = try await database.read { sql in
                try await sql.select().column("secret").from("second_factors").where("user_id", .equal, SQLBind(user.description)).first()?
                    .decode(column: "secret", as: String.self)
            }
            #expect(stored != nil && stored != setup.secret && stored?.contains(setup.secret) == false)
            let code = SecondFactorCode(code: try Self.code(for: setup, at: now))
            await #expect(throws: AuthError.self) { _ = try await factors(key: "another").confirm(code, for: user) }
            #expect(try await factors(key: "one").confirm(code, for: user).recoveryCodes.count == 10)
        }
    }

    static func code(for setup: SecondFactorSetup, at date: Date) throws -> String {
        let totp = TOTP(secret: try #require(Base32.decode(setup.secret)))
        return totp.code(step: totp.step(at: date))
    }

    @Test(
        "turned on with a first code, a password sign-in then needs the current code, each code works once, a recovery code once",
        arguments: TestStore.all)
    func signInWithCode(store: TestStore) async throws {
        let clock = SettableClock(Date())
        try await TestStack.with([AuthHarness.builder], store: store, effects: Effects(now: { clock.now })) { stack in
            let auth = stack.client(.auth)
            let email = "otp-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            let session = try await auth.register(name: "Otto Pea", email: email, password: "otto password 1")
            let setup = try await auth.value(AuthAPI.setUpSecondFactor, token: session.accessToken)
            #expect(setup.otpauthUri.hasPrefix("otpauth://totp/Huddle:") && setup.otpauthUri.contains("secret=\(setup.secret)"))
            let wrong = try await auth.call(AuthAPI.confirmSecondFactor, body: SecondFactorCode(code: "000000"), token: session.accessToken)
            #expect(wrong.status == 422 && wrong.problem?.errors?.map(\.field) == ["code"])
            let recovery = try await auth.value(
                AuthAPI.confirmSecondFactor, body: SecondFactorCode(code: try Self.code(for: setup, at: clock.now)),
                token: session.accessToken
            ).recoveryCodes
            #expect(recovery.count == 10 && Set(recovery).count == 10)

            let bare = try await auth.call(AuthAPI.login, body: LoginRequest(email: email, password: "otto password 1"))
            #expect(bare.status == 401 && bare.problem?.code == "SECOND_FACTOR_REQUIRED")
            // The code that confirmed the factor was taken: the same step's code is refused; the next step's works.
            let reused = try await auth.call(
                AuthAPI.login, body: LoginRequest(email: email, password: "otto password 1", code: try Self.code(for: setup, at: clock.now))
            )
            #expect(reused.status == 401 && reused.problem?.code == "SECOND_FACTOR_REQUIRED")
            clock.advance(by: 30)
            let next = try Self.code(for: setup, at: clock.now)
            _ = try await expect(200, auth.call(AuthAPI.login, body: LoginRequest(email: email, password: "otto password 1", code: next)))
            #expect(
                try await auth.call(AuthAPI.login, body: LoginRequest(email: email, password: "otto password 1", code: next)).status == 401)

            clock.advance(by: 60)
            let byRecovery = LoginRequest(email: email, password: "otto password 1", code: recovery[3])
            _ = try await expect(200, auth.call(AuthAPI.login, body: byRecovery))
            clock.advance(by: 60)
            #expect(try await auth.call(AuthAPI.login, body: byRecovery).status == 401)

            clock.advance(by: 60)
            _ = try await expect(
                204,
                auth.call(
                    AuthAPI.turnOffSecondFactor, body: SecondFactorCode(code: try Self.code(for: setup, at: clock.now)),
                    token: session.accessToken))
            _ = try await expect(200, auth.call(AuthAPI.login, body: LoginRequest(email: email, password: "otto password 1")))
        }
    }

    @Test("where staff need a second factor, an administrator signed in without one cannot act (403) until signed in with a code")
    func staffNeedIt() async throws {
        let clock = SettableClock(Date())
        let email = "staff-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let config = ["auth.staff.second-factor": "required", "auth.admin.emails": email]
        try await TestStack.with([AuthHarness.builder], config: config, effects: Effects(now: { clock.now })) { stack in
            let auth = stack.client(.auth)
            let admin = try await auth.register(name: "Ada Staff", email: email, password: "staff password 1")
            let someone = try await auth.register(name: "Someone")
            let refused = try await auth.call(AuthAPI.deletionProgress, someone.user.id, token: admin.accessToken)
            #expect(refused.status == 403 && refused.problem?.code == "SECOND_FACTOR_SETUP_REQUIRED")
            // A player who is not staff is untouched.
            #expect(try await auth.call(AuthAPI.me, token: someone.accessToken).status == 200)

            let setup = try await auth.value(AuthAPI.setUpSecondFactor, token: admin.accessToken)
            _ = try await auth.value(
                AuthAPI.confirmSecondFactor, body: SecondFactorCode(code: try Self.code(for: setup, at: clock.now)),
                token: admin.accessToken)
            clock.advance(by: 30)
            let withCode = try await auth.value(
                AuthAPI.login,
                body: LoginRequest(email: email, password: "staff password 1", code: try Self.code(for: setup, at: clock.now)))
            let allowed = try await auth.call(AuthAPI.deletionProgress, someone.user.id, token: withCode.accessToken)
            #expect(allowed.status == 404)
            // A refreshed token keeps the second factor.
            let refreshed = try await auth.value(AuthAPI.refresh, body: RefreshRequest(refreshToken: withCode.refreshToken))
            #expect(try await auth.call(AuthAPI.deletionProgress, someone.user.id, token: refreshed.accessToken).status == 404)
        }
    }
}
