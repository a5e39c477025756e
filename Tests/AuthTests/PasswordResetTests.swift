import Contracts
import Foundation
import HuddleEffects
import ProviderStandIns
import ServiceKitTesting
import Testing

/// A forgotten password reset from a mailed token, a known one changed, and the mail that carries
/// both through a real SMTP exchange with the stand-in's relay.
@Suite("Passwords reset by mail and changed")
struct PasswordResetTests {
    static let reset = "Reset your Huddle password", changed = "Your Huddle password was changed"

    static func address(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8).lowercased())@example.com" }

    @Test(
        "a reset mailed to a known address sets the password and signs in, ending every other session; the token works once; an unknown address is answered the same and mailed nothing",
        arguments: TestStore.all)
    func resetByMail(store: TestStore) async throws {
        try await withMailStandIn { settings, standInURL in
            try await AuthHarness.with(store: store, config: settings) { auth, _ in
                let mailbox = TestClient(baseURL: standInURL)
                let email = Self.address("ann"), stranger = Self.address("nobody")
                let old = try await auth.register(name: "Ann Anhyzer", email: email, password: "old password 1")
                let known = try await auth.call(AuthAPI.forgotPassword, body: ForgotPasswordRequest(email: email.uppercased()))
                let unknown = try await auth.call(AuthAPI.forgotPassword, body: ForgotPasswordRequest(email: stranger))
                #expect(known.status == 202 && unknown.status == 202 && known.body == unknown.body)

                let mail = try #require(try await mailbox.mails(to: email, subject: Self.reset, reaching: 1).first)
                #expect(mail.subject == "Reset your Huddle password" && mail.from == "no-reply@huddle.dev")
                #expect(mail.text.contains("Hi Ann Anhyzer") && mail.html?.contains("<a href=\"https://huddle.dev/reset?token=") == true)
                let token = try mail.linkedToken()

                let signedIn = try await expect(
                    200, auth.call(AuthAPI.resetPassword, body: ResetPasswordRequest(token: token, password: "new password 2")))
                #expect(try signedIn.decode(Session.self).user.email == email)
                #expect(try await auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: old.refreshToken)).status == 401)
                #expect(try await auth.call(AuthAPI.me, token: old.accessToken).status == 401)
                #expect(try await auth.call(AuthAPI.login, body: LoginRequest(email: email, password: "old password 1")).status == 401)
                #expect(try await auth.call(AuthAPI.login, body: LoginRequest(email: email, password: "new password 2")).status == 200)

                let again = try await auth.call(AuthAPI.resetPassword, body: ResetPasswordRequest(token: token, password: "new password 3"))
                #expect(again.status == 400 && again.problem?.code == "INVALID_TOKEN")
                let forged = try await auth.call(
                    AuthAPI.resetPassword, body: ResetPasswordRequest(token: "forged", password: "new password 3"))
                #expect(forged.status == 400 && forged.problem?.code == "INVALID_TOKEN")
                #expect(try await mailbox.mails(to: email, subject: Self.changed, reaching: 1).count == 1)
                // Mail leaves in the order it was queued: a mail to the stranger would have gone before the notice.
                #expect(try await mailbox.mails(to: stranger).isEmpty)
            }
        }
    }

    @Test(
        "a later request replaces the earlier token, a weak password is refused without spending the token, and a token past its half hour is refused"
    )
    func tokensExpireAndAreReplaced() async throws {
        let clock = SettableClock(Date())
        try await withMailStandIn { settings, standInURL in
            try await TestStack.with([AuthHarness.builder], config: settings, effects: Effects(now: { clock.now })) { stack in
                let auth = stack.client(.auth), mailbox = TestClient(baseURL: standInURL)
                let email = Self.address("ben")
                _ = try await auth.register(name: "Ben", email: email, password: "old password 1")
                _ = try await expect(202, auth.call(AuthAPI.forgotPassword, body: ForgotPasswordRequest(email: email)))
                let first = try #require(try await mailbox.mails(to: email, subject: Self.reset, reaching: 1).first).linkedToken()
                _ = try await expect(202, auth.call(AuthAPI.forgotPassword, body: ForgotPasswordRequest(email: email)))
                let second = try #require(try await mailbox.mails(to: email, subject: Self.reset, reaching: 2).first).linkedToken()
                #expect(first != second)
                let replaced = try await auth.call(
                    AuthAPI.resetPassword, body: ResetPasswordRequest(token: first, password: "new password 2"))
                #expect(replaced.problem?.code == "INVALID_TOKEN")
                let weak = try await auth.call(AuthAPI.resetPassword, body: ResetPasswordRequest(token: second, password: "short"))
                #expect(weak.status == 422 && weak.problem?.errors?.map(\.field) == ["password"])

                clock.advance(by: 31 * 60)
                let expired = try await auth.call(
                    AuthAPI.resetPassword, body: ResetPasswordRequest(token: second, password: "new password 2"))
                #expect(expired.status == 400 && expired.problem?.code == "INVALID_TOKEN")
            }
        }
    }

    @Test("a mail queued while the relay is down arrives once when it is back")
    func relayDownThenBack() async throws {
        try await withMailStandIn { settings, standInURL in
            try await AuthHarness.with(config: settings) { auth, _ in
                let mailbox = TestClient(baseURL: standInURL)
                let email = Self.address("cleo"), later = Self.address("dan")
                for address in [email, later] { _ = try await auth.register(name: "Cleo", email: address, password: "old password 1") }
                try await mailbox.mailOutage(true)
                _ = try await expect(202, auth.call(AuthAPI.forgotPassword, body: ForgotPasswordRequest(email: email)))
                // The first try and a retry (after 200 ms) have met the outage.
                #expect(try await eventually { try await mailbox.mailConnectionsRefused() >= 2 })
                #expect(try await mailbox.mails(to: email, subject: Self.reset).isEmpty)
                try await mailbox.mailOutage(false)
                #expect(try await mailbox.mails(to: email, subject: Self.reset, reaching: 1).count == 1)
                // A mail queued after it goes out after it: had the first been sent again, it would be there by now.
                _ = try await expect(202, auth.call(AuthAPI.forgotPassword, body: ForgotPasswordRequest(email: later)))
                _ = try await mailbox.mails(to: later, subject: Self.reset, reaching: 1)
                #expect(try await mailbox.mails(to: email, subject: Self.reset).count == 1)
            }
        }
    }

    @Test(
        "changing the password needs the current one; the other sessions end, this one stays, and the owner is told",
        arguments: TestStore.all)
    func change(store: TestStore) async throws {
        try await withMailStandIn { settings, standInURL in
            try await AuthHarness.with(store: store, config: settings) { auth, _ in
                let email = Self.address("dora")
                let phone = try await auth.register(name: "Dora", email: email, password: "old password 1")
                let tablet = try await auth.value(AuthAPI.login, body: LoginRequest(email: email, password: "old password 1"))
                let wrong = try await auth.call(
                    AuthAPI.changePassword, body: ChangePasswordRequest(currentPassword: "not it at all", newPassword: "new password 2"),
                    token: phone.accessToken)
                #expect(wrong.status == 401 && wrong.problem?.code == "REAUTHENTICATION_REQUIRED")
                _ = try await expect(
                    204,
                    auth.call(
                        AuthAPI.changePassword,
                        body: ChangePasswordRequest(currentPassword: "old password 1", newPassword: "new password 2"),
                        token: phone.accessToken))
                #expect(try await auth.call(AuthAPI.me, token: phone.accessToken).status == 200)
                #expect(try await auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: tablet.refreshToken)).status == 401)
                #expect(try await auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: phone.refreshToken)).status == 200)
                #expect(try await auth.call(AuthAPI.login, body: LoginRequest(email: email, password: "new password 2")).status == 200)
                #expect(try await TestClient(baseURL: standInURL).mails(to: email, subject: Self.changed, reaching: 1).count == 1)
            }
        }
    }

    @Test("an address and a client may each ask only so often, known or not: the sixth request for one address within the hour is 429")
    func limited() async throws {
        try await withMailStandIn { settings, _ in
            try await AuthHarness.with(config: settings) { auth, _ in
                let stranger = Self.address("eve")
                for _ in 0..<5 {
                    _ = try await expect(202, auth.call(AuthAPI.forgotPassword, body: ForgotPasswordRequest(email: stranger)))
                }
                let refused = try await auth.call(AuthAPI.forgotPassword, body: ForgotPasswordRequest(email: stranger))
                #expect(refused.status == 429 && refused.problem?.code == "TOO_MANY_ATTEMPTS" && refused.header("Retry-After") != nil)
                _ = try await expect(202, auth.call(AuthAPI.forgotPassword, body: ForgotPasswordRequest(email: Self.address("fay"))))
            }
        }
    }
}
