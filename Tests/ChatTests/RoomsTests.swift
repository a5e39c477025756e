import Contracts
import Foundation
import ServerContracts
import ServiceKitTesting
import Testing

@Suite("Chat rooms, membership and blocks")
struct RoomsTests {
    @Test("A team's room follows its members: in when they join, 404 the moment they leave", arguments: TestStore.all)
    func teamRoomFollowsMembers(store: TestStore) async throws {
        try await ChatHarness.with(store: store) { chat in
            let manager = try await chat.player("Manager"), player = try await chat.player("Player"),
                outsider = try await chat.player("Out")
            let room = try await chat.team("Kalev Spikers", manager: manager, players: [player])
            #expect(room.name == "Kalev Spikers")
            #expect(try await chat.rooms(player).contains { $0.id == room.id })
            #expect(try await chat.rooms(outsider).contains { $0.id == room.id } == false)
            #expect(try await chat.send("let me in", to: room.id, as: outsider).status == 404)
            _ = try await expect(201, chat.send("training at 7", to: room.id, as: player))
            try await chat.leave(room, player)
            #expect(try await chat.send("still here?", to: room.id, as: player).status == 404)
            #expect(try await chat.chat.call(ChatAPI.messages, room.id, token: player.accessToken).status == 404)
            #expect(try await chat.history(room.id, as: manager).map(\.text) == ["training at 7"])
        }
    }

    @Test("A game's room holds its roster — going, maybe, invited, waitlisted — and a match's room is anyone's")
    func gameAndMatchRooms() async throws {
        try await ChatHarness.with { chat in
            let organizer = try await chat.player("Org"), invited = try await chat.player("Inv"), other = try await chat.player("Other")
            let game = Game(
                id: GameID(), kind: .pickup, status: .scheduled, organizerId: organizer.user.id,
                startsAt: Date().addingTimeInterval(86_400),
                sport: .soccer, privacy: .public, ageGroup: .adult, gender: .coed, skill: .any, goingCount: 1, waitlistCount: 0,
                subsNeeded: 0, description: "Sunday kickabout", createdAt: Date())
            try await chat.deliver([(GameEvent.created, game.id.description, GameEvent.GameChanged(game: game, invited: [invited.user.id]))]
            )
            let room = try #require(try await chat.rooms(organizer).first { $0.kind == .game })
            #expect(room.name == "Sunday kickabout" && room.subjectId == game.id.description)
            #expect(try await chat.rooms(invited).contains { $0.id == room.id })
            #expect(try await chat.send("hi", to: room.id, as: other).status == 404)
            try await chat.deliver([
                (
                    GameEvent.rosterChanged, game.id.description,
                    GameEvent.RosterChanged(
                        gameId: game.id, userId: other.user.id, status: .waitlisted, goingCount: 1, waitlistCount: 1, subsNeeded: 0)
                )
            ])
            #expect(try await chat.send("can I come?", to: room.id, as: other).status == 201)
            try await chat.deliver([
                (
                    GameEvent.rosterChanged, game.id.description,
                    GameEvent.RosterChanged(
                        gameId: game.id, userId: invited.user.id, status: .notGoing, goingCount: 1, waitlistCount: 1, subsNeeded: 0)
                )
            ])
            #expect(try await chat.send("bye", to: room.id, as: invited).status == 404)

            let match = Match(
                id: MatchID(), league: .init(id: 39, name: "Premier League", country: "England"), kickoff: Date().addingTimeInterval(600),
                status: .notStarted, minute: nil, home: .init(id: 1, name: "Levadia", logo: nil),
                away: .init(id: 2, name: "Flora", logo: nil),
                score: .init(home: 0, away: 0), halftime: nil, events: [], version: 1, updatedAt: Date())
            try await chat.deliver([(MatchEvent.updated, match.id.description, MatchEvent.MatchChanged(match: match, providerFixtureId: 1))]
            )
            // A match's room is in my rooms once I follow it; until then it is among the matches to choose from,
            // and reading it changes nothing.
            #expect(try await chat.rooms(other).first { $0.kind == .match } == nil)
            let matches = try await expect(200, chat.chat.call(ChatAPI.rooms, query: ChatAPI.roomKind(.match), token: other.accessToken))
                .decode(Page<ChatRoom>.self).items
            let matchRoom = try #require(matches.first)
            #expect(matchRoom.name == "Levadia – Flora" && matches.allSatisfy { $0.kind == .match })
            _ = try await expect(200, chat.chat.call(ChatAPI.room, matchRoom.id, token: other.accessToken))
            #expect(try await !chat.rooms(other).contains { $0.id == matchRoom.id })
            for _ in 0..<2 { _ = try await expect(200, chat.chat.call(ChatAPI.follow, matchRoom.id, token: other.accessToken)) }
            #expect(try await chat.rooms(other).filter { $0.id == matchRoom.id }.count == 1)
            #expect(try await chat.send("come on Levadia", to: matchRoom.id, as: other).status == 201)
            for _ in 0..<2 { _ = try await expect(200, chat.chat.call(ChatAPI.unfollow, matchRoom.id, token: other.accessToken)) }
            #expect(try await !chat.rooms(other).contains { $0.id == matchRoom.id })
            // A team's or game's room is mine while I am in it: it cannot be unfollowed.
            let refused = try await chat.chat.call(ChatAPI.unfollow, room.id, token: organizer.accessToken)
            #expect(refused.status == 403)
            #expect(try await chat.chat.call(ChatAPI.follow, RoomID(), token: other.accessToken).status == 404)
        }
    }

    @Test("Blocks hide their messages from me and close our direct room both ways", arguments: TestStore.all)
    func blocks(store: TestStore) async throws {
        try await ChatHarness.with(store: store) { chat in
            let ada = try await chat.player("Ada"), troll = try await chat.player("Troll")
            let global = try await chat.globalRoom(ada).id
            let direct = try await expect(
                200, chat.chat.call(ChatAPI.direct, body: DirectRoomRequest(userId: troll.user.id), token: ada.accessToken)
            ).decode(ChatRoom.self)
            #expect(direct.kind == .direct && direct.name == "Troll" && direct.subjectId == troll.user.id.description)
            let again = try await expect(
                200, chat.chat.call(ChatAPI.direct, body: DirectRoomRequest(userId: ada.user.id), token: troll.accessToken)
            ).decode(ChatRoom.self)
            #expect(again.id == direct.id && again.name == "Ada")
            _ = try await expect(201, chat.send("boo", to: global, as: troll))
            _ = try await expect(201, chat.send("hello all", to: global, as: ada))
            try await chat.block(troll, by: ada)
            #expect(try await chat.history(global, as: ada).map(\.text) == ["hello all"])
            #expect(try await chat.history(global, as: troll).map(\.text) == ["hello all", "boo"])
            #expect(try await chat.globalRoom(ada).unreadCount == 0)
            #expect(try await chat.send("psst", to: direct.id, as: troll).problem?.code == "BLOCKED")
            #expect(try await chat.send("psst", to: direct.id, as: ada).problem?.code == "BLOCKED")
            let reopened = try await chat.chat.call(ChatAPI.direct, body: DirectRoomRequest(userId: ada.user.id), token: troll.accessToken)
            #expect(reopened.status == 403)
            let listed = try await expect(200, chat.chat.call(ChatAPI.blocks, token: ada.accessToken)).decode(Page<ChatBlock>.self)
            #expect(listed.items.map(\.userId) == [troll.user.id])
            #expect(try await chat.chat.call(ChatAPI.block, ada.user.id, token: ada.accessToken).status == 422)
            try await chat.unblock(troll, by: ada)
            #expect(try await chat.history(global, as: ada).count == 2)
            #expect(try await chat.send("sorry", to: direct.id, as: troll).status == 201)
        }
    }
}
