import Contracts
import Foundation
import NIOHTTP1
import ServiceKitTesting
import Testing

@Suite("Profiles and follows")
struct ProfileTests {
    @Test("a player edits their profile; others see only the public part", arguments: TestStore.all)
    func editProfile(store: TestStore) async throws {
        try await AuthHarness.with(store: store) { auth, _ in
            let ana = try await auth.register(name: "Ana")
            let ben = try await auth.register(name: "Ben")
            let patch = try await auth.call(
                AuthAPI.updateMe,
                body: UpdateProfileRequest(
                    name: "Ana K", pictureUrl: "https://img.example.com/a.png", sports: [.volleyball, .discGolf, .volleyball]),
                token: ana.accessToken)
            #expect(patch.status == 200)
            #expect(try patch.decode(MyProfile.self).sports == [.volleyball, .discGolf])

            let seen = try await auth.call(AuthAPI.profile, ana.user.id, token: ben.accessToken)
            #expect(seen.status == 200)
            #expect(
                try seen.decode(PublicProfile.self)
                    == PublicProfile(
                        id: ana.user.id, name: "Ana K", pictureUrl: "https://img.example.com/a.png", sports: [.volleyball, .discGolf]))
            #expect(!seen.text.contains("@"))

            // null removes the picture; absent fields stay.
            let cleared = try await auth.call(AuthAPI.updateMe, rawBody: Data(#"{"pictureUrl":null}"#.utf8), token: ana.accessToken)
            let profile = try cleared.decode(MyProfile.self)
            #expect(profile.pictureUrl == nil)
            #expect(profile.name == "Ana K")
        }
    }

    @Test("invalid profile changes are refused and change nothing")
    func invalidProfile() async throws {
        try await AuthHarness.with { auth, _ in
            let ana = try await auth.register(name: "Ana")
            let badSport = try await auth.call(AuthAPI.updateMe, rawBody: Data(#"{"sports":["quidditch"]}"#.utf8), token: ana.accessToken)
            #expect(badSport.status == 422)
            #expect(badSport.problem?.errors?.first?.field == "sports[0]")
            let badPicture = try await auth.call(
                AuthAPI.updateMe, body: UpdateProfileRequest(name: "New", pictureUrl: "javascript:alert(1)"), token: ana.accessToken)
            #expect(badPicture.status == 422)
            #expect(badPicture.problem?.errors?.map(\.field) == ["pictureUrl"])
            #expect(try await auth.call(AuthAPI.me, token: ana.accessToken).decode(MyProfile.self).name == "Ana")
        }
    }

    @Test("unknown players are 404 and profiles need a token")
    func unknownPlayer() async throws {
        try await AuthHarness.with { auth, _ in
            let ana = try await auth.register()
            #expect(try await auth.call(AuthAPI.profile, UUID(), token: ana.accessToken).status == 404)
            #expect(try await auth.call(AuthAPI.profile, "not-a-uuid", token: ana.accessToken).status == 404)
            #expect(try await auth.call(AuthAPI.profile, ana.user.id).status == 401)
        }
    }

    @Test("follow, list both ways with pages, unfollow", arguments: TestStore.all)
    func follows(store: TestStore) async throws {
        try await AuthHarness.with(store: store) { auth, _ in
            let me = try await auth.register(name: "Me")
            var others: [Session] = []
            for name in ["One", "Two", "Three"] { others.append(try await auth.register(name: name)) }
            for other in others {
                #expect(try await auth.call(AuthAPI.follow, other.user.id, token: me.accessToken).status == 204)
            }
            // Following twice is harmless.
            #expect(try await auth.call(AuthAPI.follow, others[0].user.id, token: me.accessToken).status == 204)

            let firstPage = try await auth.call(AuthAPI.following, query: Query.limit(2), token: me.accessToken).decode(
                Page<PublicProfile>.self)
            #expect(firstPage.items.map(\.name) == ["Three", "Two"])
            let cursor = try #require(firstPage.nextCursor)
            let secondPage = try await auth.call(AuthAPI.following, query: Query.limit(2) + Query.cursor(cursor), token: me.accessToken)
                .decode(Page<PublicProfile>.self)
            #expect(secondPage.items.map(\.name) == ["One"])
            #expect(secondPage.nextCursor == nil)

            let followers = try await auth.call(AuthAPI.followers, token: others[1].accessToken).decode(Page<PublicProfile>.self)
            #expect(followers.items.map(\.id) == [me.user.id])

            #expect(try await auth.call(AuthAPI.unfollow, others[1].user.id, token: me.accessToken).status == 204)
            let after = try await auth.call(AuthAPI.following, token: me.accessToken).decode(Page<PublicProfile>.self)
            #expect(after.items.map(\.name) == ["Three", "One"])
        }
    }

    /// On PostgreSQL two follows at once both found none and both inserted; the second failed (500).
    @Test("following one player sixteen times at once leaves one follow", arguments: TestStore.all)
    func followsAtOnce(store: TestStore) async throws {
        try await AuthHarness.with(store: store) { auth, _ in
            let me = try await auth.register(name: "Me"), other = try await auth.register(name: "Other")
            let statuses = try await (0..<16).concurrentMap { _ in
                try await auth.call(AuthAPI.follow, other.user.id, token: me.accessToken).status
            }
            #expect(statuses == Array(repeating: 204, count: 16))
            let followers = try await auth.call(AuthAPI.followers, token: other.accessToken).decode(Page<PublicProfile>.self)
            #expect(followers.items.map(\.id) == [me.user.id])
        }
    }

    @Test("follow refusals: yourself, unknown players, bad paging")
    func followRefusals() async throws {
        try await AuthHarness.with { auth, _ in
            let me = try await auth.register()
            let selfFollow = try await auth.call(AuthAPI.follow, me.user.id, token: me.accessToken)
            #expect(selfFollow.status == 422)
            #expect(selfFollow.problem?.code == "CANNOT_FOLLOW_SELF")
            #expect(try await auth.call(AuthAPI.follow, UUID(), token: me.accessToken).status == 404)
            #expect(try await auth.call(AuthAPI.following, rawQuery: "limit=0", token: me.accessToken).status == 422)
            #expect(try await auth.call(AuthAPI.following, rawQuery: "limit=101", token: me.accessToken).status == 422)
            #expect(try await auth.call(AuthAPI.following, rawQuery: "cursor=%%%", token: me.accessToken).status == 422)
        }
    }
}
