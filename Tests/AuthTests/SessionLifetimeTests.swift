import Contracts
import Foundation
import HuddleEffects
import ServiceKitTesting
import Testing

@testable import AuthService

/// Sessions that slide with use up to an absolute end, and the list of my devices.
@Suite("Session lifetime and devices")
struct SessionLifetimeTests {
    static let day: TimeInterval = 86_400

    @Test("the rule: each use moves the end 30 days on, never past a year from the sign-in")
    func rule() {
        let lifetime = SessionLifetime(), start = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(lifetime.expiry(createdAt: start, usedAt: start) == start.addingTimeInterval(30 * Self.day))
        #expect(
            lifetime.expiry(createdAt: start, usedAt: start.addingTimeInterval(200 * Self.day)) == start.addingTimeInterval(230 * Self.day))
        #expect(
            lifetime.expiry(createdAt: start, usedAt: start.addingTimeInterval(350 * Self.day)) == start.addingTimeInterval(365 * Self.day))
    }

    @Test("a session refreshed monthly stays signed in for a year and then ends; one left idle for 31 days ends", arguments: TestStore.all)
    func slides(store: TestStore) async throws {
        let clock = SettableClock(Date())
        try await TestStack.with([AuthHarness.builder], store: store, effects: Effects(now: { clock.now })) { stack in
            let auth = stack.client(.auth)
            var monthly = try await auth.register(name: "Monthly Mo")
            let idle = try await auth.register(name: "Idle Ida")
            for _ in 1...12 {
                clock.advance(by: 29 * Self.day)
                monthly = try await expect(200, auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: monthly.refreshToken)))
                    .decode(Session.self)
            }
            #expect(try await auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: idle.refreshToken)).status == 401)
            clock.advance(by: 29 * Self.day)
            let pastAYear = try await auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: monthly.refreshToken))
            #expect(pastAYear.status == 401 && pastAYear.problem?.code == "INVALID_REFRESH_TOKEN")
        }
    }

    @Test(
        "I see my signed-in devices with what each said it was, and sign one out at once; another's session is not mine to end",
        arguments: TestStore.all)
    func devices(store: TestStore) async throws {
        try await AuthHarness.with(store: store) { auth, _ in
            let email = "devices-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            _ = try await auth.register(name: "Dev Ices", email: email, password: "device password 1")
            let phone = try await auth.value(
                AuthAPI.login, body: LoginRequest(email: email, password: "device password 1"), headers: ["User-Agent": "Huddle/2.1 iPhone"]
            )
            let tablet = try await auth.value(
                AuthAPI.login, body: LoginRequest(email: email, password: "device password 1"), headers: ["User-Agent": "Huddle/2.1 iPad"])
            let listed = try await auth.value(AuthAPI.sessions, token: phone.accessToken).items
            #expect(listed.count == 3)
            #expect(listed.filter(\.current).map(\.userAgent) == ["Huddle/2.1 iPhone"])
            let ipad = try #require(listed.first { $0.userAgent == "Huddle/2.1 iPad" })

            let stranger = try await auth.register(name: "Stranger")
            #expect(try await auth.call(AuthAPI.endSession, ipad.id, token: stranger.accessToken).status == 404)
            _ = try await expect(204, auth.call(AuthAPI.endSession, ipad.id, token: phone.accessToken))
            #expect(try await auth.call(AuthAPI.me, token: tablet.accessToken).status == 401)
            #expect(try await auth.call(AuthAPI.refresh, body: RefreshRequest(refreshToken: tablet.refreshToken)).status == 401)
            #expect(try await auth.value(AuthAPI.sessions, token: phone.accessToken).items.count == 2)
            #expect(try await auth.call(AuthAPI.endSession, ipad.id, token: phone.accessToken).status == 404)
        }
    }
}
