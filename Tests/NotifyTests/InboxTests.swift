import Contracts
import Foundation
import ProviderStandIns
import SQLKit
import ServiceKitTesting
import ServiceStore
import Testing

/// Devices, the inbox and preferences through notify's API.
@Suite(.serialized) struct InboxTests {
    @Test(arguments: TestStore.all)
    func aTokenBelongsToOneUserAndMovesWhenAnotherRegistersIt(store: TestStore) async throws {
        try await NotifyHarness.with(store: store) { harness in
            let ana = try await harness.player("Ana"), ben = try await harness.player("Ben")
            let token = NotifyHarness.apnsToken()
            let device = try await expect(201, harness.register(token, ana)).decode(Device.self)
            #expect(device.environment == .sandbox && device.topic == "app.huddle.ios" && device.platform == .apns)
            // The same phone, signed in as Ben.
            _ = try await expect(201, harness.register(token.uppercased(), ben))
            #expect(try await devices(ana, harness).isEmpty)
            #expect(try await devices(ben, harness).map(\.token) == [token])
            // Ana cannot remove Ben's device; Ben can.
            _ = try await expectProblem(
                404, "NOT_FOUND", harness.notify.call(NotifyAPI.removeDevice, token, token: ana.accessToken))
            _ = try await expect(204, harness.notify.call(NotifyAPI.removeDevice, token, token: ben.accessToken))
            #expect(try await devices(ben, harness).isEmpty)
        }
    }

    @Test func badTokensAreRefusedWithTheFieldNamed() async throws {
        try await NotifyHarness.with { harness in
            let ana = try await harness.player("Ana")
            let notHex = try await expectProblem(422, "VALIDATION_FAILED", harness.register(String(repeating: "z", count: 64), ana))
            #expect(notHex.errors?.first?.field == "token")
            let badFCM = try await expectProblem(422, "VALIDATION_FAILED", harness.register("9jNp9SDCORpEGKzaKqpI*", ana, platform: .fcm))
            #expect(badFCM.errors?.first?.field == "token")
            let fcmWithEnvironment = try await expectProblem(
                422, "VALIDATION_FAILED",
                harness.notify.call(
                    NotifyAPI.registerDevice, body: RegisterDevice(platform: .fcm, token: "fcm-token-123", environment: .sandbox),
                    token: ana.accessToken))
            #expect(fcmWithEnvironment.errors?.first?.field == "environment")
            _ = try await expectProblem(401, "UNAUTHORIZED", harness.notify.call(NotifyAPI.inbox))
        }
    }

    /// A token is its device's key, and PostgreSQL's B-tree takes keys up to about 2,700 bytes.
    @Test(arguments: TestStore.all)
    func theLongestTokenIsKeptAndOneLongerIsRefused(store: TestStore) async throws {
        try await NotifyHarness.with(store: store) { harness in
            let ana = try await harness.player("Ana")
            // Random, so that PostgreSQL cannot compress the key under its limit.
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_:.-")
            func token(_ length: Int) -> String { String((0..<length).map { _ in alphabet.randomElement()! }) }
            let longest = token(NotifyLimits.fcmTokenLength.upperBound)
            _ = try await expect(201, harness.register(longest, ana, platform: .fcm))
            #expect(try await devices(ana, harness).map(\.token) == [longest])
            let tooLong = try await expectProblem(
                422, "VALIDATION_FAILED", harness.register(token(NotifyLimits.fcmTokenLength.upperBound + 1), ana, platform: .fcm))
            #expect(tooLong.errors?.map(\.field) == ["token"])
            _ = try await expect(204, harness.notify.call(NotifyAPI.removeDevice, longest, token: ana.accessToken))
            #expect(try await devices(ana, harness).isEmpty)
        }
    }

    @Test(arguments: TestStore.all)
    func theInboxPagesNewestFirstAndCountsWhatIsUnread(store: TestStore) async throws {
        try await NotifyHarness.with(store: store) { harness in
            let ana = try await harness.player("Ana")
            let auth = harness.stack.client(.auth)
            var followers: [Session] = []
            for index in 0..<5 {
                let follower = try await harness.player("Follower \(index)")
                _ = try await expect(204, auth.call(AuthAPI.follow, ana.user.id, token: follower.accessToken))
                followers.append(follower)
            }
            let all = try await harness.inbox(ana, reaching: 5)
            #expect(all.unreadCount == 5)
            #expect(all.items.map(\.body) == followers.reversed().map { "\($0.user.name) follows you." })

            let first = try await harness.inbox(ana, query: Query.limit(2))
            let cursor = try #require(first.nextCursor)
            let second = try await harness.inbox(ana, query: Query.limit(2) + Query.cursor(cursor))
            let third = try await harness.inbox(ana, query: Query.limit(2) + Query.cursor(try #require(second.nextCursor)))
            #expect((first.items + second.items + third.items).map(\.id) == all.items.map(\.id))
            #expect(third.nextCursor == nil)

            let read = try await expect(200, harness.notify.call(NotifyAPI.read, all.items[1].id, token: ana.accessToken))
                .decode(InboxUnread.self)
            #expect(read.unreadCount == 4)
            // Again is fine, and keeps the count.
            #expect(
                try await expect(200, harness.notify.call(NotifyAPI.read, all.items[1].id, token: ana.accessToken))
                    .decode(InboxUnread.self).unreadCount == 4)
            // Someone else's notification does not exist for me.
            let ben = followers[0]
            _ = try await expectProblem(
                404, "NOT_FOUND", harness.notify.call(NotifyAPI.read, all.items[0].id, token: ben.accessToken))
            let after = try await harness.inbox(ana)
            #expect(after.items.filter { $0.readAt != nil }.map(\.id) == [all.items[1].id])

            #expect(
                try await expect(200, harness.notify.call(NotifyAPI.readAll, token: ana.accessToken)).decode(InboxUnread.self)
                    .unreadCount == 0)
            #expect(try await harness.inbox(ana).unreadCount == 0)
        }
    }

    @Test(arguments: TestStore.all)
    func aCategoryTurnedOffIsKeptInTheInboxButNotPushed(store: TestStore) async throws {
        try await NotifyHarness.with(store: store) { harness in
            let ana = try await harness.player("Ana"), ben = try await harness.player("Ben"), cid = try await harness.player("Cid")
            let dee = try await harness.player("Dee")
            let phone = NotifyHarness.apnsToken()
            _ = try await expect(201, harness.register(phone, ana))
            let defaults = try await expect(200, harness.notify.call(NotifyAPI.preferences, token: ana.accessToken))
                .decode(NotificationPreferences.self)
            #expect(defaults.categories.switches.count == NotificationCategory.allCases.count)
            #expect(defaults.categories.switches.values.allSatisfy { $0 })

            let auth = harness.stack.client(.auth)
            _ = try await expect(204, auth.call(AuthAPI.follow, ana.user.id, token: ben.accessToken))
            let pushed = try #require(try await harness.inbox(ana, reaching: 1).items.first)
            #expect(try await harness.pushed(pushed.id, to: phone))

            let off = try await expect(
                200,
                harness.notify.call(
                    NotifyAPI.setPreferences, body: NotificationPreferences(categories: CategorySwitches([.newFollower: false])),
                    token: ana.accessToken)
            ).decode(NotificationPreferences.self)
            #expect(off.categories[.newFollower] == false && off.categories[.newGame] == true)
            _ = try await expect(204, auth.call(AuthAPI.follow, ana.user.id, token: cid.accessToken))
            let kept = try #require(try await harness.inbox(ana, reaching: 2).items.first)
            #expect(kept.body == "Cid follows you.")
            // Turned on again, the next is pushed; the queue sends in order, so the one before it would have gone first.
            _ = try await expect(
                200,
                harness.notify.call(
                    NotifyAPI.setPreferences, body: NotificationPreferences(categories: CategorySwitches([.newFollower: true])),
                    token: ana.accessToken))
            _ = try await expect(204, auth.call(AuthAPI.follow, ana.user.id, token: dee.accessToken))
            let next = try #require(try await harness.inbox(ana, reaching: 3).items.first)
            #expect(try await harness.pushed(next.id, to: phone))
            let received = try await harness.standIn.pushes("apns", to: phone)
            #expect(received.count == 2)
            #expect(!received.contains { $0.payload.contains(kept.id.description) })

            let unknown = try await harness.notify.call(
                NotifyAPI.setPreferences, rawBody: Data(#"{"categories":{"goals":false}}"#.utf8), token: ana.accessToken,
                headers: ["Content-Type": "application/json"])
            #expect(unknown.status == 400 || unknown.status == 422)
        }
    }

    private func devices(_ player: Session, _ harness: NotifyHarness) async throws -> [Device] {
        try await expect(200, harness.notify.call(NotifyAPI.devices, token: player.accessToken)).decode(Page<Device>.self).items
    }

    @Test(arguments: TestStore.all)
    func aDeletedAccountsDevicesAndInboxGoAndOthersNotificationsNameItNoMore(store: TestStore) async throws {
        try await NotifyHarness.with(store: store) { harness in
            let ana = try await harness.player("Ana Staying"), ada = try await harness.player("Ada Leaving")
            let auth = harness.stack.client(.auth)
            _ = try await expect(201, harness.register(NotifyHarness.apnsToken(), ada))
            _ = try await expect(204, auth.call(AuthAPI.follow, ana.user.id, token: ada.accessToken))
            _ = try await expect(204, auth.call(AuthAPI.follow, ada.user.id, token: ana.accessToken))
            #expect(try await harness.inbox(ana, reaching: 1).items.map(\.body) == ["Ada Leaving follows you."])
            _ = try await harness.inbox(ada, reaching: 1)

            _ = try await expect(
                204, auth.call(AuthAPI.deleteMe, body: DeleteAccountRequest(password: "correct horse battery"), token: ada.accessToken))
            let renamed = try await poll {
                try await harness.inbox(ana).items.map(\.body)
            } until: {
                $0 != ["Ada Leaving follows you."]
            }
            #expect(renamed == ["A former player follows you."])
            // Nothing of Ada is left in notify's store.
            for table in ["devices", "notifications", "preferences", "reminders", "people"] {
                let left = try await harness.store.read { sql in
                    try await sql.select().column("user_id").from(table).where("user_id", .equal, SQLBind(ada.user.id.description)).all()
                }
                #expect(left.isEmpty, "\(table)")
            }
        }
    }
}
