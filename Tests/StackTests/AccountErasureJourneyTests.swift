import Contracts
import Foundation
import ServiceHTTP
import ServiceKitTesting
import Testing

/// A player with a team, a league, games, a round, messages, a phone and followers takes a copy of
/// their data, then deletes their account; afterwards no public surface shows them, the team and
/// league have a new manager who is told, and operators see every service finished.
@Suite("Deleting an account, across every service")
struct AccountErasureJourneyTests {
    @Test(
        "after the deletion nobody finds the player's name: search, team and game rosters, the scorecard, chat, others' inboxes; the waiting list moved up and the email registers anew",
        arguments: StackTests.stores)
    func erasedEverywhere(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let suffix = UUID().uuidString.prefix(6).lowercased()
            let name = "Zelda Leaving \(suffix)", email = "zelda-\(suffix)@example.com"
            let zelda = try await gateway.register(name: name, email: email), bo = try await gateway.register(name: "Bo \(suffix)")
            let cy = try await gateway.register(name: "Cy \(suffix)")
            let admin = try await StackTests.administrator(gateway)

            // A team Zelda manages, with Bo in it; a game Cy organises, Zelda in its only free slot and Bo waiting.
            let team = try await StackTests.volleyballTeam("Zelda's \(suffix)", by: zelda, through: gateway)
            _ = try await gateway.value(CatalogAPI.joinTeam, team.id, token: bo.accessToken)
            // A league Zelda runs, with a team Bo manages in it.
            let league = try await StackTests.volleyballLeague("Zelda League \(suffix)", by: zelda, through: gateway)
            let bosTeam = try await StackTests.volleyballTeam(
                "Bo's \(suffix)", at: Location(lat: 59.44, lng: 24.75), by: bo, through: gateway)
            _ = try expect(
                202,
                try await gateway.call(
                    CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: bosTeam.id), token: zelda.accessToken))
            _ = try await gateway.value(CatalogAPI.acceptLeague, bosTeam.id, league.id, token: bo.accessToken)
            let game = try await gateway.value(
                GamesAPI.createGame,
                body: CreateGameRequest(
                    kind: .pickup, startsAt: Date().addingTimeInterval(7 * 86_400), location: Location(lat: 59.43, lng: 24.75),
                    sport: .volleyball, privacy: .public, ageGroup: .adult, gender: .coed, skill: .any, capacity: 2), token: cy.accessToken)
            #expect(try await gateway.value(GamesAPI.joinGame, game.id, token: zelda.accessToken).status == .going)
            #expect(try await gateway.value(GamesAPI.joinGame, game.id, token: bo.accessToken).status == .waitlisted)
            // A round Bo keeps with her, a message in the global room, her phone, and follows both ways.
            let course = try await StackTests.nineHoleCourse(
                "Erasure Park \(suffix)", at: Location(lat: 58.98, lng: 26.25), by: admin, through: gateway)
            let card = try await gateway.value(
                GamesAPI.startRound, body: StartRoundRequest(courseId: course.id, players: [.init(userId: zelda.user.id)]),
                token: bo.accessToken)
            let global = try #require(
                try await gateway.value(ChatAPI.rooms, token: zelda.accessToken).items.first { $0.kind == .global })
            let bye = try await gateway.value(
                ChatAPI.send, global.id, body: SendChatMessage(text: "bye from \(suffix)", clientMessageId: "bye-\(suffix)"),
                token: zelda.accessToken)
            _ = try await gateway.value(
                NotifyAPI.registerDevice, body: RegisterDevice(platform: .fcm, token: "zelda-phone-\(suffix)"), token: zelda.accessToken)
            _ = try expect(204, try await gateway.call(AuthAPI.follow, bo.user.id, token: zelda.accessToken))
            _ = try expect(204, try await gateway.call(AuthAPI.follow, zelda.user.id, token: bo.accessToken))
            _ = try await poll {
                try await gateway.value(SearchAPI.players, query: SearchAPI.playerText("zelda"), token: bo.accessToken).items
            } until: {
                $0.contains { $0.id == zelda.user.id }
            }

            // Her copy of her data holds what each service held of her, and only she sees it.
            let asked = try await gateway.value(AuthAPI.requestExport, token: zelda.accessToken)
            #expect(asked.status == .pending && asked.document == nil)
            let export = try await poll {
                try await gateway.value(AuthAPI.export, asked.id, token: zelda.accessToken)
            } until: {
                $0.status == .ready
            }
            let document = try #require(export.document)
            #expect(Set(document.keys) == Set((Wiring.personalDataHolders + [.auth]).map(\.rawValue)))
            #expect(document["auth"]?["profile"]?.mentions(email) == true)
            #expect(document["auth"]?["followers"]?.mentions(bo.user.id.description) == true)
            #expect(document["catalog"]?["teams"]?.mentions(team.id.description) == true)
            #expect(document["games"]?["gamePlaces"]?.mentions(game.id.description) == true)
            #expect(document["games"]?["rounds"]?.mentions(card.id.description) == true)
            #expect(document["chat"]?["messages"]?.mentions("bye from \(suffix)") == true)
            #expect(document["notify"]?["devices"]?.mentions("zelda-phone-\(suffix)") == true)
            #expect(document["search"]?["listing"]?.mentions(name) == true)
            #expect(try await gateway.call(AuthAPI.export, asked.id, token: bo.accessToken).status == 404)

            _ = try expect(
                204,
                try await gateway.call(
                    AuthAPI.deleteMe, body: DeleteAccountRequest(password: "correct horse battery"), token: zelda.accessToken))

            let roster = try await poll {
                try await gateway.value(GamesAPI.roster, game.id, token: cy.accessToken).items
            } until: {
                $0.count == 2
            }
            #expect(roster.map(\.userId) == [cy.user.id, bo.user.id] && roster.map(\.status) == [.going, .going])
            let passed = try await poll {
                try await gateway.value(CatalogAPI.team, team.id, token: bo.accessToken)
            } until: {
                $0.managerId == bo.user.id
            }
            #expect(passed.memberCount == 1)
            #expect(try await gateway.value(CatalogAPI.league, league.id, token: bo.accessToken).managerId == bo.user.id)
            #expect(
                try await eventually {
                    try await !gateway.value(SearchAPI.players, query: SearchAPI.playerText("zelda"), token: bo.accessToken).items.contains
                    {
                        $0.id == zelda.user.id
                    }
                })
            let kept = try await poll {
                try await gateway.value(GamesAPI.round, card.id, token: bo.accessToken)
            } until: {
                !$0.players.contains { $0.name == name }
            }
            #expect(kept.players.allSatisfy { $0.userId != zelda.user.id })
            let said = try await poll {
                try await gateway.value(
                    ChatAPI.messages, global.id, query: ChatAPI.messagesAfter(bye.seq - 1) + Query.limit(1), token: bo.accessToken
                )
                .items.filter { $0.id == bye.id }
            } until: {
                $0.allSatisfy { $0.deleted == true }
            }
            #expect(!said.isEmpty && said.allSatisfy { $0.text.isEmpty && $0.senderName != name })
            let inbox = try await poll {
                try await gateway.value(NotifyAPI.inbox, token: bo.accessToken).items
            } until: {
                !$0.contains { $0.body.contains(name) } && $0.filter { $0.category == .becameManager }.count == 2
            }
            #expect(inbox.contains { $0.body.contains("A former player") })
            #expect(inbox.contains { $0.category == .becameManager && $0.data.teamId == team.id && $0.title.contains("Zelda's \(suffix)") })
            #expect(inbox.contains { $0.category == .becameManager && $0.data.leagueId == league.id })
            #expect(try await gateway.value(AuthAPI.followers, token: bo.accessToken).items.isEmpty)
            // Operators see every service finished; players cannot look.
            let progress = try await poll {
                try await gateway.value(AuthAPI.deletionProgress, zelda.user.id, token: admin.accessToken)
            } until: {
                $0.complete
            }
            #expect(
                progress.services.map(\.module).sorted { $0.rawValue < $1.rawValue }
                    == Wiring.personalDataHolders.sorted { $0.rawValue < $1.rawValue })
            #expect(try await gateway.call(AuthAPI.deletionProgress, zelda.user.id, token: bo.accessToken).status == 403)
            let signIn = try await gateway.call(AuthAPI.login, body: LoginRequest(email: email, password: "correct horse battery"))
            #expect(signIn.status == 401)
            _ = try expect(
                201,
                try await gateway.call(
                    AuthAPI.register, body: RegisterRequest(email: email, password: "a new password", name: "Zelda Again")))
        }
    }
}

extension JSONValue {
    /// Whether `text` is one of this value's strings, or part of one, at any depth.
    func mentions(_ text: String) -> Bool {
        switch self {
        case .string(let value): value.contains(text)
        case .array(let values): values.contains { $0.mentions(text) }
        case .object(let members): members.values.contains { $0.mentions(text) }
        case .null, .bool, .integer, .number: false
        }
    }
}
