import Contracts
import Foundation
import NIOHTTP1
import ServiceKitTesting
import Testing

@Suite("Rosters")
struct RosterTests {
    @Test("Invited team members answer for themselves; answers show on the roster", arguments: TestStore.all)
    func answers(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let manager = try await h.player(), pete = try await h.player(), paula = try await h.player(), stranger = try await h.player()
            let team = try await h.team(managedBy: manager, players: [pete, paula])
            let game = try await h.create(
                CreateGameRequest(kind: .team, teamId: team.id, startsAt: GamesHarness.nextWeek, organizerGoing: false), by: manager)

            let going = try await expect(200, h.answer(game, .going, as: pete)).decode(RosterPlace.self)
            #expect(going.status == .going && going.goingCount == 1)
            #expect(try await h.answer(game, .maybe, as: paula).decode(RosterPlace.self).status == .maybe)
            #expect(try await h.answer(game, .notGoing, as: pete).decode(RosterPlace.self).goingCount == 0)
            let roster = try await h.roster(game, as: manager)
            #expect(roster.map(\.status) == [.maybe, .invited, .notGoing])
            #expect(roster.map(\.userId) == [paula.user.id, manager.user.id, pete.user.id])

            // Only the three answers are a player's to give, and only their own.
            let invalid = try await h.games.call(
                GamesAPI.setStatus, game.id, rawBody: Data(#"{"status":"waitlisted"}"#.utf8), token: pete.accessToken,
                headers: ["Content-Type": "application/json"])
            #expect(invalid.status == 422 && invalid.problem?.errors?.map(\.field) == ["status"])
            let unknown = try await h.games.call(
                GamesAPI.setStatus, game.id, rawBody: Data(#"{"status":"sleeping"}"#.utf8), token: pete.accessToken,
                headers: ["Content-Type": "application/json"])
            #expect(unknown.status == 422)
            #expect(try await h.answer(game, .going, as: stranger).status == 403)
        }
    }

    @Test("A protected game turns a join into a request the organiser approves or declines", arguments: TestStore.all)
    func protectedRequests(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let organizer = try await h.player(), asker = try await h.player("Asker"), other = try await h.player("Other")
            let game = try await h.pickup(by: organizer, privacy: .protected)
            #expect(try await h.join(game, as: asker).status == .pending)
            #expect(try await h.join(game, as: other).status == .pending)
            // A pending request waits: the asker cannot say going, and others do not see it.
            #expect(try await h.answer(game, .going, as: asker).status == 403)
            #expect(try await h.roster(game, as: other).map(\.userId) == [organizer.user.id])
            #expect(try await h.roster(game, as: organizer).filter { $0.status == .pending }.count == 2)

            #expect(
                try await h.games.call(GamesAPI.approveGameRequest, game.id, asker.user.id, token: other.accessToken).status == 403)
            let approved = try await expect(
                200, h.games.call(GamesAPI.approveGameRequest, game.id, asker.user.id, token: organizer.accessToken)
            ).decode(RosterPlace.self)
            #expect(approved.status == .going && approved.goingCount == 2)
            #expect(
                try await h.games.call(GamesAPI.declineGameRequest, game.id, other.user.id, token: organizer.accessToken).status == 204
            )
            #expect(
                try await h.games.call(GamesAPI.declineGameRequest, game.id, other.user.id, token: organizer.accessToken).status == 404
            )
            #expect(try await h.roster(game, as: organizer).map(\.userId) == [organizer.user.id, asker.user.id])

            // Withdrawing a request takes the asker off the roster.
            let third = try await h.player()
            _ = try await h.join(game, as: third)
            let withdrawn = try await expect(200, h.answer(game, .notGoing, as: third)).decode(RosterPlace.self)
            #expect(withdrawn.status == nil)
        }
    }

    @Test("A private game is invisible to others and open only by invitation", arguments: TestStore.all)
    func privateGames(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let organizer = try await h.player(), friend = try await h.player("Friend"), stranger = try await h.player()
            let game = try await h.pickup(by: organizer, privacy: .private)
            #expect(try await h.read(game, as: stranger).status == 404)
            #expect(try await h.games.call(GamesAPI.joinGame, game.id, token: stranger.accessToken).status == 404)
            #expect(try await h.games.call(GamesAPI.roster, game.id, token: stranger.accessToken).status == 404)
            #expect(
                try await h.games.call(
                    GamesAPI.inviteToGame, game.id, body: InviteRequest(userIds: [stranger.user.id]), token: stranger.accessToken
                ).status == 404)

            let unknown = try await h.games.call(
                GamesAPI.inviteToGame, game.id, body: InviteRequest(userIds: [friend.user.id, UserID()]), token: organizer.accessToken)
            #expect(unknown.status == 422 && unknown.problem?.errors?.map(\.field) == ["userIds[1]"])
            let invited = try await expect(
                200,
                h.games.call(
                    GamesAPI.inviteToGame, game.id, body: InviteRequest(userIds: [friend.user.id, organizer.user.id]),
                    token: organizer.accessToken)
            ).decode(InviteResult.self)
            #expect(invited.invited == [friend.user.id] && invited.unchanged == [organizer.user.id])
            #expect(try await h.read(game, as: friend).decode(Game.self).myStatus == .invited)
            #expect(try await h.join(game, as: friend).status == .going)
            #expect(try await h.read(game, as: stranger).status == 404)
        }
    }

    @Test("Inviting someone who asked to join lets them in")
    func inviteApproves() async throws {
        try await GamesHarness.with { h in
            let organizer = try await h.player(), asker = try await h.player()
            let game = try await h.pickup(by: organizer, privacy: .protected)
            _ = try await h.join(game, as: asker)
            _ = try await expect(
                200,
                h.games.call(GamesAPI.inviteToGame, game.id, body: InviteRequest(userIds: [asker.user.id]), token: organizer.accessToken))
            #expect(try await h.read(game, as: asker).decode(Game.self).myStatus == .going)
            #expect(
                try await h.games.call(GamesAPI.inviteToGame, game.id, body: InviteRequest(userIds: []), token: organizer.accessToken)
                    .status == 422)
        }
    }
}
