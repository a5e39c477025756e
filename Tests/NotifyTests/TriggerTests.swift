import Contracts
import Foundation
import ServiceKitTesting
import Testing

/// Each thing that notifies, made through the other services' APIs and read from the inbox.
@Suite(.serialized) struct TriggerTests {
    @Test(arguments: TestStore.all)
    func aNewTeamGameReachesEveryMemberItInvitedWithAPushPerDevice(store: TestStore) async throws {
        try await NotifyHarness.with(store: store) { harness in
            let manager = try await harness.player("Maria Manager")
            let ana = try await harness.player("Ana"), ben = try await harness.player("Ben")
            let (anaPhone, anaTablet, benPhone) = (NotifyHarness.apnsToken(), NotifyHarness.apnsToken(), "fcm:ben-phone-0123456789")
            _ = try await expect(201, harness.register(anaPhone, ana))
            _ = try await expect(201, harness.register(anaTablet, ana))
            _ = try await expect(201, harness.register(benPhone, ben, platform: .fcm))
            let team = try await harness.team("Huddle Rovers", managedBy: manager)
            for player in [ana, ben] {
                _ = try await expect(200, harness.catalog.call(CatalogAPI.joinTeam, team.id, token: player.accessToken))
            }
            // Games hears of the members from catalog's events before it can invite them.
            try await Task.sleep(for: .milliseconds(500))
            let game = try await expect(
                201,
                harness.games.call(
                    GamesAPI.createGame, body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: NotifyHarness.nextWeek),
                    token: manager.accessToken)
            ).decode(Game.self)

            let anaInbox = try await harness.inbox(ana, reaching: 1)
            let note = try #require(anaInbox.items.first)
            #expect(note.category == .newGame)
            #expect(note.title == "New game: Huddle Rovers")
            #expect(note.data.gameId == game.id && note.data.teamId == team.id)
            #expect(anaInbox.unreadCount == 1)
            #expect(try await harness.pushed(note.id, to: anaPhone))
            #expect(try await harness.pushed(note.id, to: anaTablet))
            let benNote = try #require(try await harness.inbox(ben, reaching: 1).items.first)
            #expect(try await harness.pushed(benNote.id, to: benPhone, service: "fcm"))
            // The manager made the game: nothing for them.
            #expect(try await harness.inbox(manager).items.isEmpty)
        }
    }

    @Test(arguments: TestStore.all)
    func joinRequestsReachTheManagerAndApprovalsThePlayer(store: TestStore) async throws {
        try await NotifyHarness.with(store: store) { harness in
            let manager = try await harness.player("Maria Manager"), ana = try await harness.player("Ana Asker")
            let team = try await harness.team("Protected Rovers", managedBy: manager, privacy: .protected)
            _ = try await expect(200, harness.catalog.call(CatalogAPI.joinTeam, team.id, token: ana.accessToken))
            let request = try #require(try await harness.inbox(manager, reaching: 1).items.first)
            #expect(request.category == .joinRequest)
            #expect(request.body == "Ana Asker asked to join Protected Rovers.")
            #expect(request.data.teamId == team.id && request.data.userId == ana.user.id)

            _ = try await expect(
                204, harness.catalog.call(CatalogAPI.approveTeamRequest, team.id, ana.user.id, token: manager.accessToken))
            let approved = try #require(try await harness.inbox(ana, reaching: 1).items.first)
            #expect(approved.category == .requestApproved)
            #expect(approved.body == "You're in Protected Rovers.")
        }
    }

    @Test(arguments: TestStore.all)
    func invitationsToATeamAndAGameReachTheInvited(store: TestStore) async throws {
        try await NotifyHarness.with(store: store) { harness in
            let manager = try await harness.player("Maria Manager"), ana = try await harness.player("Ana")
            let team = try await harness.team("Private Rovers", managedBy: manager, privacy: .private)
            _ = try await expect(
                200,
                harness.catalog.call(
                    CatalogAPI.inviteToTeam, team.id, body: InviteRequest(userIds: [ana.user.id]), token: manager.accessToken))
            let invitation = try #require(try await harness.inbox(ana, reaching: 1).items.first)
            #expect(invitation.category == .invitation)
            #expect(invitation.body == "Maria Manager invited you to join Private Rovers.")

            let game = try await expect(201, harness.games.call(GamesAPI.createGame, body: Self.pickup(), token: manager.accessToken))
                .decode(
                    Game.self)
            _ = try await expect(
                200,
                harness.games.call(GamesAPI.inviteToGame, game.id, body: InviteRequest(userIds: [ana.user.id]), token: manager.accessToken))
            let both = try await harness.inbox(ana, reaching: 2)
            #expect(both.items.first?.category == .invitation)
            #expect(both.items.first?.data.gameId == game.id)
            #expect(both.items.first?.body == "Maria Manager invited you to play: Beach volleyball.")
        }
    }

    @Test(arguments: TestStore.all)
    func aWaitlistedPlayerIsToldWhenASlotFrees(store: TestStore) async throws {
        try await NotifyHarness.with(store: store) { harness in
            let organizer = try await harness.player("Olga"), ana = try await harness.player("Ana"), ben = try await harness.player("Ben")
            // The organiser takes one of the two places.
            let game = try await expect(
                201, harness.games.call(GamesAPI.createGame, body: Self.pickup(capacity: 2), token: organizer.accessToken)
            )
            .decode(Game.self)
            _ = try await expect(200, harness.games.call(GamesAPI.joinGame, game.id, token: ana.accessToken))
            let waiting = try await expect(200, harness.games.call(GamesAPI.joinGame, game.id, token: ben.accessToken)).decode(
                RosterPlace.self)
            #expect(waiting.status == .waitlisted)
            _ = try await expect(
                200,
                harness.games.call(GamesAPI.setStatus, game.id, body: SetRosterStatusRequest(status: .notGoing), token: ana.accessToken))
            let promoted = try #require(try await harness.inbox(ben, reaching: 1).items.first)
            #expect(promoted.category == .waitlistPromoted)
            #expect(promoted.body == "A place freed up in Beach volleyball: you're going.")
            #expect(try await harness.inbox(ana).items.isEmpty)
        }
    }

    @Test func aNewFollowerIsToldOnceEvenWhenFollowedTwice() async throws {
        try await NotifyHarness.with { harness in
            let ana = try await harness.player("Ana"), ben = try await harness.player("Ben Follower")
            let auth = harness.stack.client(.auth)
            _ = try await expect(204, auth.call(AuthAPI.follow, ana.user.id, token: ben.accessToken))
            _ = try await expect(204, auth.call(AuthAPI.follow, ana.user.id, token: ben.accessToken))
            let note = try #require(try await harness.inbox(ana, reaching: 1).items.first)
            #expect(note.category == .newFollower && note.body == "Ben Follower follows you." && note.data.userId == ben.user.id)
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await harness.inbox(ana).items.count == 1)
        }
    }

    @Test(arguments: TestStore.all)
    func playersAddedToARoundAreToldWhoStartedItAndWhere(store: TestStore) async throws {
        try await NotifyHarness.with(store: store, config: ["auth.admin.emails": "admin@example.com"]) { harness in
            let admin = try await harness.stack.client(.auth).register(name: "Ada Admin", email: "admin@example.com")
            let holes = (1...9).map { number in
                Hole(
                    number: number, par: 3, tee: Coordinates(lat: 58.98 + Double(number) * 0.001, lng: 26.25),
                    basket: Coordinates(lat: 58.9805 + Double(number) * 0.001, lng: 26.25))
            }
            let course = try await expect(
                201,
                harness.catalog.call(
                    CatalogAPI.createCourse,
                    body: CreateCourseRequest(name: "Rakke DiscGolfPark", location: NotifyHarness.tallinn, holes: holes),
                    token: admin.accessToken)
            ).decode(Course.self)
            let dmitri = try await harness.player("Dmitri"), eva = try await harness.player("Eva")
            let card = try await expect(
                201,
                harness.games.call(
                    GamesAPI.startRound, body: StartRoundRequest(courseId: course.id, players: [RoundPlayerRequest(userId: eva.user.id)]),
                    token: dmitri.accessToken)
            ).decode(Scorecard.self)
            let note = try #require(try await harness.inbox(eva, reaching: 1).items.first)
            #expect(note.category == .addedToRound && note.data.roundId == card.id)
            #expect(note.body == "Dmitri added you to a round at Rakke DiscGolfPark.")
            #expect(try await harness.inbox(dmitri).items.isEmpty)
        }
    }

    static func pickup(capacity: Int? = nil) -> CreateGameRequest {
        CreateGameRequest(
            kind: .pickup, startsAt: NotifyHarness.nextWeek, location: NotifyHarness.tallinn, sport: .volleyball, privacy: .public,
            ageGroup: .adult, gender: .coed, skill: .intermediate, capacity: capacity, description: "Beach volleyball")
    }
}
