import Contracts
import Foundation
import ServiceKitTesting
import Testing

/// A caller without the right to a write is told so before anything reads its body: the 403 (or 404
/// for what they may not see), never the body's 422 — while the one with the right still gets the 422.
@Suite("Rights before bodies")
struct AuthorizationFirstTests {
    @Test("each write that only some may make answers a stranger's bad body 403 or 404, and its rightful caller's 422")
    func rightsBeforeBodies() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let admin = try await StackTests.administrator(gateway)
            let owner = try await gateway.register(name: "Rightful Owner"), stranger = try await gateway.register(name: "Nosy Stranger")
            let course = try await StackTests.nineHoleCourse(
                "Rights Park", at: Location(lat: 58.98, lng: 26.25), by: admin, through: gateway)
            let team = try await StackTests.volleyballTeam("Rights FC", by: owner, through: gateway)
            let league = try await StackTests.volleyballLeague("Rights League", by: owner, through: gateway)
            let game = try await gateway.value(GamesAPI.createGame, body: StackTests.pickupGame(description: nil), token: owner.accessToken)
            let round = try await gateway.value(
                GamesAPI.startRound, body: StartRoundRequest(courseId: course.id), token: owner.accessToken)
            let global = try #require(try await gateway.value(ChatAPI.rooms, token: owner.accessToken).items.first { $0.kind == .global })
            let said = try await gateway.value(
                ChatAPI.send, global.id, body: SendChatMessage(text: "mine to edit", clientMessageId: UUID().uuidString),
                token: owner.accessToken)

            let bad = Data(#"{"name": 5, "userIds": "nobody", "text": 7, "needed": "many", "strokes": "lots", "capacity": "many"}"#.utf8)
            // (what the stranger is answered, whether the rightful caller's same body is its 422)
            let writes: [(String, Int, (String) async throws -> TestClient.Response)] = [
                ("create a course", 403, { try await gateway.call(CatalogAPI.createCourse, rawBody: bad, token: $0) }),
                ("save a hole", 403, { try await gateway.call(CatalogAPI.saveHole, course.id, 1, rawBody: bad, token: $0) }),
                ("create a venue", 403, { try await gateway.call(CatalogAPI.createVenue, rawBody: bad, token: $0) }),
                ("publish news", 403, { try await gateway.call(CatalogAPI.publishNews, rawBody: bad, token: $0) }),
                ("update a team", 403, { try await gateway.call(CatalogAPI.updateTeam, team.id, rawBody: bad, token: $0) }),
                ("invite to a team", 403, { try await gateway.call(CatalogAPI.inviteToTeam, team.id, rawBody: bad, token: $0) }),
                ("add a league's team", 403, { try await gateway.call(CatalogAPI.addLeagueTeam, league.id, rawBody: bad, token: $0) }),
                ("update a game", 403, { try await gateway.call(GamesAPI.updateGame, game.id, rawBody: bad, token: $0) }),
                ("invite to a game", 403, { try await gateway.call(GamesAPI.inviteToGame, game.id, rawBody: bad, token: $0) }),
                ("ask for substitutes", 403, { try await gateway.call(GamesAPI.askForSubstitutes, game.id, rawBody: bad, token: $0) }),
                ("score a round", 404, { try await gateway.call(GamesAPI.score, round.id, rawBody: bad, token: $0) }),
                ("edit a message", 403, { try await gateway.call(ChatAPI.edit, global.id, said.id, rawBody: bad, token: $0) }),
            ]
            for (name, refusal, write) in writes {
                #expect(try await write(stranger.accessToken).status == refusal, "a stranger may not \(name)")
                let rightful = ["create a course", "save a hole", "create a venue", "publish news"].contains(name) ? admin : owner
                #expect(try await write(rightful.accessToken).status == 422, "the rightful caller's bad body to \(name)")
            }
            let decided = try await gateway.call(ModerationAPI.act, CaseID(), rawBody: bad, token: stranger.accessToken)
            #expect(decided.status == 403, "only moderators decide cases")
        }
    }
}
