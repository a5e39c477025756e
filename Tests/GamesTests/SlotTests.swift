import Contracts
import Foundation
import ServiceKitTesting
import Testing

@Suite("Slots, waiting list and substitutes")
struct SlotTests {
    @Test("Past capacity, players queue with a position, and the first in line takes a freed slot", arguments: TestStore.all)
    func waitingList(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let organizer = try await h.player("Org")
            let game = try await h.pickup(by: organizer, capacity: 2)
            let anna = try await h.player("Anna"), ben = try await h.player("Ben"), cleo = try await h.player("Cleo")
            #expect(try await h.join(game, as: anna).status == .going)
            let benPlace = try await h.join(game, as: ben)
            #expect(benPlace.status == .waitlisted && benPlace.position == 1 && benPlace.goingCount == 2)
            let cleoPlace = try await h.join(game, as: cleo)
            #expect(cleoPlace.status == .waitlisted && cleoPlace.position == 2)
            // Joining again changes nothing.
            #expect(try await h.join(game, as: cleo).position == 2)

            let seen = try await h.read(game, as: cleo).decode(Game.self)
            #expect(seen.goingCount == 2 && seen.waitlistCount == 2 && seen.myStatus == .waitlisted)

            // Anna drops out: Ben, first in line, is promoted; Cleo moves up.
            _ = try await expect(200, h.answer(game, .notGoing, as: anna))
            let roster = try await h.roster(game, as: organizer)
            #expect(roster.map(\.name) == ["Org", "Ben", "Cleo", "Anna"])
            #expect(roster.map(\.status) == [.going, .going, .waitlisted, .notGoing])
            #expect(roster[2].position == 1)

            // Anna changes her mind: the game is full, so she queues behind Cleo.
            let again = try await expect(200, h.answer(game, .going, as: anna)).decode(RosterPlace.self)
            #expect(again.status == .waitlisted && again.position == 2)

            // More slots seat the waiting list in order.
            let bigger = try await expect(
                200, h.games.call(GamesAPI.updateGame, game.id, body: UpdateGameRequest(capacity: 3), token: organizer.accessToken)
            ).decode(Game.self)
            #expect(bigger.goingCount == 3 && bigger.waitlistCount == 1)
            #expect(try await h.read(game, as: cleo).decode(Game.self).myStatus == .going)
            #expect(try await h.read(game, as: anna).decode(Game.self).myStatus == .waitlisted)
        }
    }

    @Test("Players racing for the last slot never both get it", arguments: TestStore.all)
    func lastSlotRace(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let organizer = try await h.player()
            let racers = try await withThrowingTaskGroup(of: Session.self) { group in
                for index in 0..<8 { group.addTask { try await h.player("Racer \(index)") } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for round in 0..<3 {
                // Two slots: the organiser holds one, eight players race for the other.
                let game = try await h.pickup(
                    by: organizer, capacity: 2, startsAt: GamesHarness.nextWeek.addingTimeInterval(Double(round) * 60))
                let places = try await withThrowingTaskGroup(of: RosterPlace.self) { group in
                    for racer in racers { group.addTask { try await h.join(game, as: racer) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(places.filter { $0.status == .going }.count == 1)
                #expect(places.filter { $0.status == .waitlisted }.compactMap(\.position).sorted() == Array(1...7))
                let final = try await h.read(game, as: organizer).decode(Game.self)
                #expect(final.goingCount == 2 && final.waitlistCount == 7)
            }
        }
    }

    @Test("Players who join while substitutes are wanted come in as substitutes and count the call down", arguments: TestStore.all)
    func substitutes(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let manager = try await h.player(), member = try await h.player()
            let team = try await h.team(managedBy: manager, players: [member], privacy: .protected)
            let game = try await h.create(CreateGameRequest(kind: .team, teamId: team.id, startsAt: GamesHarness.nextWeek), by: manager)
            let sub1 = try await h.player("Sub One"), sub2 = try await h.player("Sub Two"), late = try await h.player("Late")

            // Without a call, an outsider of a protected game only asks.
            #expect(try await h.join(game, as: late).status == .pending)
            #expect(
                try await h.games.call(GamesAPI.askForSubstitutes, game.id, body: SubstitutesRequest(needed: 2), token: member.accessToken)
                    .status
                    == 403)
            let bad = try await h.games.call(
                GamesAPI.askForSubstitutes, game.id, body: SubstitutesRequest(needed: -1), token: manager.accessToken)
            #expect(bad.status == 422 && bad.problem?.errors?.map(\.field) == ["needed"])

            let asked = try await expect(
                200, h.games.call(GamesAPI.askForSubstitutes, game.id, body: SubstitutesRequest(needed: 2), token: manager.accessToken)
            ).decode(Game.self)
            #expect(asked.subsNeeded == 2)
            let first = try await h.join(game, as: sub1)
            #expect(first.status == .going && first.substitute && first.subsNeeded == 1)
            // A team member answering is not a substitute.
            let memberPlace = try await expect(200, h.answer(game, .going, as: member)).decode(RosterPlace.self)
            #expect(!memberPlace.substitute && memberPlace.subsNeeded == 1)
            #expect(try await h.join(game, as: sub2).subsNeeded == 0)
            // Filled: the next outsider asks again.
            let after = try await h.player()
            #expect(try await h.join(game, as: after).status == .pending)
            let roster = try await h.roster(game, as: manager)
            #expect(roster.filter(\.substitute).map(\.name) == ["Sub One", "Sub Two"])

            _ = try await expect(
                200, h.games.call(GamesAPI.askForSubstitutes, game.id, body: SubstitutesRequest(needed: 1), token: manager.accessToken))
            let cleared = try await expect(
                200, h.games.call(GamesAPI.askForSubstitutes, game.id, body: SubstitutesRequest(needed: 0), token: manager.accessToken)
            ).decode(Game.self)
            #expect(cleared.subsNeeded == 0)
        }
    }

    @Test(
        "A private game asking for substitutes shows a stranger only its sport, time and call; they ask to come in, and once approved they are a substitute who sees it all",
        arguments: TestStore.all)
    func privateSubstitutes(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let organizer = try await h.player(), sub = try await h.player("Sub Private"), late = try await h.player()
            let game = try await h.pickup(by: organizer, privacy: .private)
            #expect(try await h.read(game, as: sub).status == 404)
            _ = try await expect(
                200, h.games.call(GamesAPI.askForSubstitutes, game.id, body: SubstitutesRequest(needed: 1), token: organizer.accessToken))

            let glimpse = try await h.read(game, as: sub).decode(Game.self)
            #expect(glimpse.sport == game.sport && glimpse.startsAt == game.startsAt && glimpse.subsNeeded == 1)
            #expect(glimpse.location == nil && glimpse.description == nil && glimpse.capacity == nil && glimpse.goingCount == 0)
            #expect(try await h.games.call(GamesAPI.roster, game.id, token: sub.accessToken).status == 404)
            let asked = try await h.join(game, as: sub)
            #expect(asked.status == .pending && asked.substitute && asked.subsNeeded == 1)
            #expect(try await h.read(game, as: sub).decode(Game.self).location == nil)
            #expect(try await h.roster(game, as: organizer).first { $0.userId == sub.user.id }?.status == .pending)

            let approved = try await expect(
                200, h.games.call(GamesAPI.approveGameRequest, game.id, sub.user.id, token: organizer.accessToken)
            ).decode(RosterPlace.self)
            #expect(approved.status == .going && approved.substitute && approved.subsNeeded == 0)
            let seen = try await h.read(game, as: sub).decode(Game.self)
            #expect(seen.location == game.location && seen.myStatus == .going)
            #expect(try await h.roster(game, as: sub).first { $0.userId == sub.user.id }?.substitute == true)
            // The call is answered: the game is private again.
            #expect(try await h.read(game, as: late).status == 404)
            #expect(try await h.games.call(GamesAPI.joinGame, game.id, token: late.accessToken).status == 404)
        }
    }

    @Test(
        "A deleted account leaves every roster and the first in line takes its slot; the games it organised are cancelled; scorecards show a former player",
        arguments: TestStore.all)
    func deletedAccount(store: TestStore) async throws {
        try await GamesHarness.with(store: store, config: ["auth.events.subscribers": "games"]) { h in
            let organizer = try await h.player("Org"), anna = try await h.player("Anna Leaving"), ben = try await h.player("Ben")
            let game = try await h.pickup(by: organizer, capacity: 2)
            #expect(try await h.join(game, as: anna).status == .going)
            #expect(try await h.join(game, as: ben).status == .waitlisted)
            let annas = try await h.pickup(by: anna, capacity: 4)
            let card = try await h.startRound(on: try await h.course(), by: ben, with: [.init(userId: anna.user.id)])

            _ = try await expect(
                204, h.auth.call(AuthAPI.deleteMe, body: DeleteAccountRequest(password: "correct horse battery"), token: anna.accessToken))
            let roster = try await poll {
                try await h.roster(game, as: organizer)
            } until: {
                $0.count == 2
            }
            #expect(roster.map(\.name) == ["Org", "Ben"] && roster.map(\.status) == [.going, .going])
            let cancelled = try await h.read(annas, as: organizer).decode(Game.self)
            #expect(cancelled.status == .cancelled)
            // On the scorecard Ben kept with her, she is a former player linked to no account.
            let kept = try await h.card(card.id, as: ben)
            #expect(kept.players.map(\.name) == ["Ben", "Former player"] && kept.players[1].userId == nil)
        }
    }
}
