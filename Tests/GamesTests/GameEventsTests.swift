import Contracts
import Foundation
import ServerContracts
import ServiceKitTesting
import Testing

@Suite("Games events")
struct GameEventsTests {
    @Test(
        "Games publishes created, roster, needs-players and cancelled events, in order, with the state they produced",
        arguments: TestStore.all)
    func publishes(store: TestStore) async throws {
        try await RecordingSubscriber.with { subscriber in
            let config = ["games.events.subscribers": "search"]
            try await GamesHarness.with(store: store, config: config, directory: [.search: subscriber.url]) { h in
                let organizer = try await h.player(), player = try await h.player(), waiting = try await h.player()
                let game = try await h.pickup(by: organizer, capacity: 2)
                _ = try await h.join(game, as: player)
                _ = try await h.join(game, as: waiting)
                _ = try await expect(
                    200,
                    h.games.call(GamesAPI.askForSubstitutes, game.id, body: SubstitutesRequest(needed: 1), token: organizer.accessToken))
                _ = try await expect(200, h.answer(game, .notGoing, as: player))
                // A refused change publishes nothing.
                _ = try await h.games.call(
                    GamesAPI.askForSubstitutes, game.id, body: SubstitutesRequest(needed: 1), token: player.accessToken)
                _ = try await expect(204, h.games.call(GamesAPI.cancelGame, game.id, token: organizer.accessToken))

                try await subscriber.waitFor(count: 6)
                try await Task.sleep(for: .milliseconds(200))
                let events = subscriber.events
                #expect(
                    events.map(\.type) == [
                        GameEvent.created.name, GameEvent.rosterChanged.name, GameEvent.rosterChanged.name,
                        GameEvent.needsPlayersChanged.name, GameEvent.rosterChanged.name, GameEvent.cancelled.name,
                    ])
                let created = try HuddleJSON.decoder.decode(GameEvent.GameChanged.self, from: events[0].payload).game
                #expect(
                    created.id == game.id && created.location == GamesHarness.kadriorg && created.goingCount == 1 && created.myStatus == nil
                )
                let queued = try HuddleJSON.decoder.decode(GameEvent.RosterChanged.self, from: events[2].payload)
                #expect(queued.userId == waiting.user.id && queued.status == .waitlisted && queued.waitlistCount == 1)
                let needs = try HuddleJSON.decoder.decode(GameEvent.NeedsPlayersChanged.self, from: events[3].payload)
                #expect(needs.subsNeeded == 1 && needs.needsPlayers)
                let dropped = try HuddleJSON.decoder.decode(GameEvent.RosterChanged.self, from: events[4].payload)
                #expect(dropped.userId == player.user.id && dropped.status == .notGoing && dropped.promoted == [waiting.user.id])
                #expect(dropped.goingCount == 2 && dropped.waitlistCount == 0)
                let cancelled = try HuddleJSON.decoder.decode(GameEvent.GameChanged.self, from: events[5].payload).game
                #expect(cancelled.status == .cancelled)
            }
        }
    }

    @Test("A new team game's event names the members it invited, so they can be told")
    func invitedMembersNamed() async throws {
        try await RecordingSubscriber.with(standingIn: .notify) { subscriber in
            try await GamesHarness.with(config: ["games.events.subscribers": "notify"], directory: [.notify: subscriber.url]) { h in
                let manager = try await h.player(), player = try await h.player()
                let team = try await h.team(managedBy: manager, players: [player])
                let game = try await h.create(CreateGameRequest(kind: .team, teamId: team.id, startsAt: GamesHarness.nextWeek), by: manager)
                try await subscriber.waitFor(count: 1)
                let event = try #require(subscriber.events.first)
                let created = try HuddleJSON.decoder.decode(GameEvent.GameChanged.self, from: event.payload)
                #expect(event.type == GameEvent.created.name && created.game.id == game.id)
                #expect(created.invited == [player.user.id] && created.going == [manager.user.id])
            }
        }
    }

    @Test(
        "Catalog's team events keep games in step: new members invited, leavers' open invitations dropped, renames, deletions",
        arguments: TestStore.all)
    func followsTeams(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let manager = try await h.player(), newcomer = try await h.player("Newcomer"), answered = try await h.player("Answered")
            let team = try await h.team(managedBy: manager, players: [answered])
            let game = try await h.create(CreateGameRequest(kind: .team, teamId: team.id, startsAt: GamesHarness.nextWeek), by: manager)
            _ = try await expect(200, h.answer(game, .going, as: answered))

            _ = try await expect(200, h.catalog.call(CatalogAPI.joinTeam, team.id, token: newcomer.accessToken))
            #expect(try await eventually { try await h.read(game, as: newcomer).decode(Game.self).myStatus == .invited })

            _ = try await expect(204, h.catalog.call(CatalogAPI.removeMember, team.id, newcomer.user.id, token: newcomer.accessToken))
            _ = try await expect(204, h.catalog.call(CatalogAPI.removeMember, team.id, answered.user.id, token: answered.accessToken))
            #expect(try await eventually { try await h.roster(game, as: manager).allSatisfy { $0.userId != newcomer.user.id } })
            // An answer given stays: they said they would come.
            #expect(try await h.roster(game, as: manager).contains { $0.userId == answered.user.id && $0.status == .going })

            _ = try await expect(
                200,
                h.catalog.call(CatalogAPI.updateTeam, team.id, body: UpdateTeamRequest(name: "Kalev Spikers"), token: manager.accessToken))
            #expect(try await eventually { try await h.read(game, as: manager).decode(Game.self).teamName == "Kalev Spikers" })

            _ = try await expect(204, h.catalog.call(CatalogAPI.deleteTeam, team.id, token: manager.accessToken))
            #expect(try await eventually { try await h.read(game, as: manager).decode(Game.self).status == .cancelled })
        }
    }
    @Test(
        "A team event older than a game does not undo its roster: a member's pending request, arriving late, leaves their invitation be (leaving takes it: see above)",
        arguments: TestStore.all)
    func lateTeamEvent(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let manager = try await h.player(), pete = try await h.player("Pete Player")
            let team = try await h.team(managedBy: manager, players: [pete])
            // Games asks catalog for the members when the game is made, so Pete is invited even if
            // catalog's events about him have not reached games yet.
            let game = try await h.create(CreateGameRequest(kind: .team, teamId: team.id, startsAt: GamesHarness.nextWeek), by: manager)
            #expect(try await h.read(game, as: pete).decode(Game.self).myStatus == .invited)

            // The event of his request to join, from before he was let in, arrives only now.
            let requested = CatalogEvent.MembershipChanged(teamId: team.id, userId: pete.user.id, role: .pending, memberCount: 1)
            try await h.games.deliverEvents([(CatalogEvent.membershipChanged, team.id.description, requested)], to: .games)
            #expect(try await h.read(game, as: pete).decode(Game.self).myStatus == .invited)
        }
    }
}
