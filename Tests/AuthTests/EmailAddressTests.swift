import Contracts
import Foundation
import ProviderStandIns
import ServiceKitTesting
import Testing

/// Addresses proven by a mailed token: the one an account registered with, and a new one it moves to.
@Suite("Verified and changed addresses")
struct EmailAddressTests {
    @Test("registering mails a link that proves the address once; until then the profile says it is not proven", arguments: TestStore.all)
    func verifiedAtRegistration(store: TestStore) async throws {
        try await withMailStandIn { settings, standInURL in
            try await AuthHarness.with(store: store, config: settings) { auth, _ in
                let mailbox = TestClient(baseURL: standInURL), email = PasswordResetTests.address("vera")
                let session = try await auth.register(name: "Vera", email: email, password: "vera password 1")
                #expect(try await auth.value(AuthAPI.me, token: session.accessToken).emailVerified == false)
                let mail = try await mailbox.mails(to: email, reaching: 1).first
                #expect(mail?.subject == "Confirm your email for Huddle" && mail?.html?.contains("/verify-email?token=") == true)
                let token = try #require(mail).linkedToken()
                let profile = try await auth.value(AuthAPI.verifyEmail, body: VerifyEmailRequest(token: token))
                #expect(profile.email == email && profile.emailVerified)
                #expect(try await auth.value(AuthAPI.me, token: session.accessToken).emailVerified)
                let again = try await auth.call(AuthAPI.verifyEmail, body: VerifyEmailRequest(token: token))
                #expect(again.status == 400 && again.problem?.code == "INVALID_TOKEN")
                // Proven already: asking again mails nothing.
                _ = try await expect(202, auth.call(AuthAPI.resendVerification, token: session.accessToken))
                try await Task.sleep(for: .milliseconds(300))
                #expect(try await mailbox.mails(to: email).count == 1)
            }
        }
    }

    @Test(
        "a new address needs the password and its own token; the old one is told; a taken one is answered the same and mailed nothing",
        arguments: TestStore.all)
    func changed(store: TestStore) async throws {
        try await withMailStandIn { settings, standInURL in
            try await AuthHarness.with(store: store, config: settings) { auth, _ in
                let mailbox = TestClient(baseURL: standInURL)
                let old = PasswordResetTests.address("otto"), new = PasswordResetTests.address("otto-new")
                let taken = PasswordResetTests.address("tess")
                let session = try await auth.register(name: "Otto", email: old, password: "otto password 1")
                _ = try await auth.register(name: "Tess", email: taken, password: "tess password 1")

                let wrong = try await auth.call(
                    AuthAPI.changeEmail, body: ChangeEmailRequest(email: new, password: "not my password"), token: session.accessToken)
                #expect(wrong.status == 401 && wrong.problem?.code == "REAUTHENTICATION_REQUIRED")
                let toTaken = try await auth.call(
                    AuthAPI.changeEmail, body: ChangeEmailRequest(email: taken, password: "otto password 1"), token: session.accessToken)
                let toNew = try await auth.call(
                    AuthAPI.changeEmail, body: ChangeEmailRequest(email: new, password: "otto password 1"), token: session.accessToken)
                #expect(toTaken.status == 202 && toNew.status == 202 && toTaken.body == toNew.body)

                let confirm = try #require(try await mailbox.mails(to: new, reaching: 1).first)
                #expect(confirm.subject == "Confirm your new email for Huddle")
                #expect(try await mailbox.mails(to: old, subject: "Your Huddle email is being changed", reaching: 2).count == 2)
                // Mail leaves in the order it was queued: one to the taken address would have gone before the new address's.
                #expect(try await mailbox.mails(to: taken, reaching: 1).allSatisfy { $0.subject == "Confirm your email for Huddle" })
                #expect(try await auth.value(AuthAPI.me, token: session.accessToken).email == old)

                let moved = try await auth.value(AuthAPI.verifyEmail, body: VerifyEmailRequest(token: try #require(confirm).linkedToken()))
                #expect(moved.email == new && moved.emailVerified)
                #expect(try await auth.call(AuthAPI.login, body: LoginRequest(email: new, password: "otto password 1")).status == 200)
                #expect(try await auth.call(AuthAPI.login, body: LoginRequest(email: old, password: "otto password 1")).status == 401)
            }
        }
    }

    @Test("an address Facebook vouched for counts as proven; its profile picture fills a profile that has none, its silhouette does not")
    func facebookVouches() async throws {
        try await StubProvider.with { stub in
            try await AuthHarness.with(config: stub.authConfig) { auth, _ in
                let email = PasswordResetTests.address("fb"), picture = "https://scontent.example.com/faye.jpg"
                let faye = "fb-\(UUID().uuidString.prefix(6))"
                let token = try await stub.token(.init(userId: faye, name: "Faye Book", email: email, pictureUrl: picture))
                let session = try await auth.value(AuthAPI.oauthLogin, "facebook", body: OAuthLoginRequest(accessToken: token))
                let me = try await auth.value(AuthAPI.me, token: session.accessToken)
                #expect(me.emailVerified && me.pictureUrl == picture && session.user.pictureUrl == picture)

                let plain = try await stub.token(.init(userId: "fb-\(UUID().uuidString.prefix(6))", name: "Sil Houette"))
                let without = try await auth.value(AuthAPI.oauthLogin, "facebook", body: OAuthLoginRequest(accessToken: plain))
                #expect(without.user.pictureUrl == nil)

                // A picture of one's own stays when Facebook has another.
                let own = "https://cdn.example.com/mine.png"
                _ = try await auth.value(AuthAPI.updateMe, body: UpdateProfileRequest(pictureUrl: .some(own)), token: session.accessToken)
                let again = try await stub.token(.init(userId: faye, name: "Faye Book", email: email, pictureUrl: picture + "?v=2"))
                let later = try await auth.value(AuthAPI.oauthLogin, "facebook", body: OAuthLoginRequest(accessToken: again))
                #expect(later.user.pictureUrl == own)
            }
        }
    }
}
