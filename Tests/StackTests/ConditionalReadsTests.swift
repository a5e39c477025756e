import Contracts
import Foundation
import ServiceKitTesting
import Testing

/// What a phone keeps is asked for again with `If-None-Match`: each read it keeps answers 304 without a
/// body while nothing changed, and 200 with a new `ETag` once another player changed it.
@Suite("Conditional reads through the gateway")
struct ConditionalReadsTests {
    @Test(
        "games, rosters, rounds, teams, members, a course, rooms and the inbox: 304 while unchanged, a new ETag after another player's change",
        arguments: StackTests.stores)
    func everyKeptReadRevalidates(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let admin = try await StackTests.administrator(gateway)
            let maria = try await gateway.register(name: "Maria Manager"), paul = try await gateway.register(name: "Paul Player")
            let ben = try await gateway.register(name: "Ben Player")
            let team = try await gateway.value(
                CatalogAPI.createTeam,
                body: CreateTeamRequest(
                    name: "Kalamaja Kites", sport: .soccer, privacy: .protected, location: Location(lat: 59.447, lng: 24.738),
                    ageGroup: .adult, gender: .coed, skill: .any),
                token: maria.accessToken)
            for player in [paul, ben] {
                _ = try await gateway.value(
                    CatalogAPI.inviteToTeam, team.id, body: InviteRequest(userIds: [player.user.id]), token: maria.accessToken)
            }
            _ = try await gateway.value(CatalogAPI.joinTeam, team.id, token: paul.accessToken)
            let game = try await gateway.value(
                GamesAPI.createGame,
                body: CreateGameRequest(
                    kind: .team, teamId: team.id,
                    startsAt: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 7 * 86_400).rounded(.down))),
                token: maria.accessToken)
            let course = try await gateway.value(
                CatalogAPI.createCourse,
                body: CreateCourseRequest(
                    name: "Kadriorg \(UUID().uuidString.prefix(6))", location: Location(lat: 59.438, lng: 24.79),
                    holes: [Hole(number: 1, par: 3), Hole(number: 2, par: 4)]),
                token: admin.accessToken)
            let round = try await gateway.value(
                GamesAPI.startRound, body: StartRoundRequest(courseId: course.id, players: [RoundPlayerRequest(userId: maria.user.id)]),
                token: paul.accessToken)
            let mariaLine = try #require(round.players.first { $0.userId == maria.user.id })
            // Rooms and the inbox follow from events: wait until Paul has the team's and the game's rooms and
            // the game's notification, so that nothing arriving late changes what the reads below keep.
            let rooms = try await poll {
                try await gateway.value(ChatAPI.rooms, query: Query.limit(100), token: paul.accessToken).items
            } until: { rooms in
                [team.id.description, game.id.description].allSatisfy { subject in rooms.contains { $0.subjectId == subject } }
            }
            let teamRoom = try #require(rooms.first { $0.subjectId == team.id.description })
            #expect(
                try await eventually {
                    try await gateway.value(NotifyAPI.inbox, token: paul.accessToken).items.contains { $0.data.gameId == game.id }
                })

            var strokes = 2
            let reads: [(String, (_ tag: String?) async throws -> APIClient.Response, () async throws -> Void)] = [
                (
                    "my games",
                    {
                        try await gateway.call(
                            GamesAPI.myGames, query: Query.mineScope(.mine), token: paul.accessToken, headers: Self.asking($0))
                    },
                    {
                        _ = try await gateway.value(
                            GamesAPI.updateGame, game.id, body: UpdateGameRequest(description: "Bring bibs"), token: maria.accessToken)
                    }
                ),
                (
                    "a game", { try await gateway.call(GamesAPI.game, game.id, token: paul.accessToken, headers: Self.asking($0)) },
                    {
                        _ = try await gateway.value(
                            GamesAPI.updateGame, game.id, body: UpdateGameRequest(description: "Bring two balls"), token: maria.accessToken)
                    }
                ),
                (
                    "a game's roster",
                    { try await gateway.call(GamesAPI.roster, game.id, token: paul.accessToken, headers: Self.asking($0)) },
                    {
                        _ = try await gateway.value(
                            GamesAPI.setStatus, game.id, body: SetRosterStatusRequest(status: .maybe), token: maria.accessToken)
                    }
                ),
                (
                    "a round", { try await gateway.call(GamesAPI.round, round.id, token: paul.accessToken, headers: Self.asking($0)) },
                    {
                        strokes += 1
                        _ = try await gateway.value(
                            GamesAPI.score, round.id, body: ScoreUpdate(playerId: mariaLine.playerId, hole: 1, strokes: strokes),
                            token: maria.accessToken)
                    }
                ),
                (
                    "my rounds",
                    {
                        try await gateway.call(
                            GamesAPI.myRounds, query: Query.mineScope(.mine), token: paul.accessToken, headers: Self.asking($0))
                    },
                    {
                        strokes += 1
                        _ = try await gateway.value(
                            GamesAPI.score, round.id, body: ScoreUpdate(playerId: mariaLine.playerId, hole: 2, strokes: strokes),
                            token: maria.accessToken)
                    }
                ),
                (
                    "a team", { try await gateway.call(CatalogAPI.team, team.id, token: paul.accessToken, headers: Self.asking($0)) },
                    {
                        _ = try await gateway.value(
                            CatalogAPI.updateTeam, team.id, body: UpdateTeamRequest(recruiting: true), token: maria.accessToken)
                    }
                ),
                (
                    "my teams",
                    {
                        try await gateway.call(
                            CatalogAPI.teams, query: CatalogAPI.teamMember(.me), token: paul.accessToken, headers: Self.asking($0))
                    },
                    {
                        _ = try await gateway.value(
                            CatalogAPI.updateTeam, team.id, body: UpdateTeamRequest(recruiting: false), token: maria.accessToken)
                    }
                ),
                (
                    "a team's members",
                    { try await gateway.call(CatalogAPI.members, team.id, token: paul.accessToken, headers: Self.asking($0)) },
                    { _ = try await gateway.value(CatalogAPI.joinTeam, team.id, token: ben.accessToken) }
                ),
                (
                    "a course (no sign-in)", { try await gateway.call(CatalogAPI.course, course.id, headers: Self.asking($0)) },
                    {
                        _ = try await gateway.value(
                            CatalogAPI.saveHole, course.id, 2, body: UpdateHoleRequest(par: 5), token: admin.accessToken)
                    }
                ),
                (
                    // My team rooms: on a deployed stack every journey talks in the global room, which changes my list.
                    "my rooms",
                    {
                        try await gateway.call(
                            ChatAPI.rooms, query: ChatAPI.roomKind(.team) + Query.limit(100), token: paul.accessToken,
                            headers: Self.asking($0))
                    },
                    {
                        _ = try await gateway.value(
                            ChatAPI.send, teamRoom.id, body: SendChatMessage(text: "Pitch 2", clientMessageId: UUID().uuidString),
                            token: maria.accessToken)
                    }
                ),
                (
                    "a room", { try await gateway.call(ChatAPI.room, teamRoom.id, token: paul.accessToken, headers: Self.asking($0)) },
                    {
                        _ = try await gateway.value(
                            ChatAPI.send, teamRoom.id, body: SendChatMessage(text: "Pitch 3", clientMessageId: UUID().uuidString),
                            token: maria.accessToken)
                    }
                ),
                (
                    "my inbox", { try await gateway.call(NotifyAPI.inbox, token: paul.accessToken, headers: Self.asking($0)) },
                    { _ = try await gateway.value(NotifyAPI.readAll, token: paul.accessToken) }
                ),
            ]
            for (name, read, change) in reads {
                let first = try await read(nil)
                let tag = try #require(first.header("ETag"), "\(name): no ETag (\(first.status) \(first.text))")
                #expect(first.status == 200, "\(name)")
                #expect(first.header("Cache-Control")?.contains("max-age=") == true, "\(name)")
                let again = try await read(tag)
                #expect(again.status == 304 && again.body.isEmpty && again.header("ETag") == tag, "\(name): \(again.status)")
                try await change()
                let changed = try await poll {
                    try await read(tag)
                } until: {
                    $0.status == 200
                }
                #expect(changed.status == 200 && changed.header("ETag") != tag && !changed.body.isEmpty, "\(name): \(changed.status)")
                #expect(try await read(changed.header("ETag")).status == 304, "\(name)")
            }

            // A tag names one player's answer: Maria's copy of Paul's game is not Paul's.
            let paulsTag = try #require(try await gateway.call(GamesAPI.game, game.id, token: paul.accessToken).header("ETag"))
            let mariasAnswer = try await gateway.call(GamesAPI.game, game.id, token: maria.accessToken, headers: Self.asking(paulsTag))
            #expect(mariasAnswer.status == 200 && mariasAnswer.header("ETag") != paulsTag)
            #expect(mariasAnswer.header("Cache-Control")?.hasPrefix("private") == true)
            // A game Paul may not see stays a 404, whatever tag he sends.
            let hidden = try await gateway.value(
                GamesAPI.createGame,
                body: CreateGameRequest(
                    kind: .pickup, startsAt: Date().addingTimeInterval(86_400), location: Location(lat: 59.43, lng: 24.75), sport: .soccer,
                    privacy: .private, ageGroup: .adult, gender: .coed, skill: .any),
                token: ben.accessToken)
            #expect(
                try await gateway.call(GamesAPI.game, hidden.id, token: paul.accessToken, headers: ["If-None-Match": "*"]).status == 404)
        }
    }

    static func asking(_ tag: String?) -> [String: String] { tag.map { ["If-None-Match": $0] } ?? [:] }
}
