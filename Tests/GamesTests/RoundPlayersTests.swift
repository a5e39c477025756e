import Contracts
import Foundation
import ServiceKitTesting
import Testing

/// Rounds on a course that is not in the list, and friends who join a round already under way.
@Suite("Unlisted courses and players joining")
struct RoundPlayersTests {
    static let woods = UnlistedCourse(
        name: "Grandpa's Woods",
        holes: [ScorecardHole(number: 2, par: 4), ScorecardHole(number: 1, par: 3), ScorecardHole(number: 3, par: 3)])

    @Test(
        "A round on a course not in the list keeps the name and pars given, under an id of its own; a bad description names the field",
        arguments: TestStore.all)
    func unlistedCourse(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let ann = try await h.player("Ann")
            let card = try await expect(
                201,
                h.games.call(
                    GamesAPI.startRound, body: StartRoundRequest(course: Self.woods, players: [.init(guestName: "Gus")]),
                    token: ann.accessToken)
            ).decode(Scorecard.self)
            #expect(card.courseUnlisted == true && card.courseName == "Grandpa's Woods" && card.par == 10)
            #expect(card.holes.map(\.number) == [1, 2, 3] && card.players.map(\.name) == ["Ann", "Gus"])
            #expect(try await h.catalog.call(CatalogAPI.course, card.courseId).status == 404)
            #expect(try await h.card(card.id, as: ann) == card)
            _ = try await expect(200, h.score(card, player: 0, hole: 2, strokes: 4, as: ann))

            let course = try await h.course(pars: [3])
            var both = StartRoundRequest(course: Self.woods)
            both.courseId = course.id
            for (request, field) in [
                (both, "courseId"),
                (
                    StartRoundRequest(course: UnlistedCourse(name: "Gap", holes: [.init(number: 1, par: 3), .init(number: 3, par: 3)])),
                    "course.holes"
                ),
                (StartRoundRequest(course: UnlistedCourse(name: " ", holes: [.init(number: 1, par: 3)])), "course.name"),
            ] {
                let refused = try await h.games.call(GamesAPI.startRound, body: request, token: ann.accessToken)
                #expect(refused.status == 422 && refused.problem?.errors?.map(\.field) == [field], "\(field)")
            }
            // A listed course's round says nothing of it.
            #expect(try await h.startRound(on: course, by: ann).courseUnlisted == nil)
        }
    }

    @Test(
        "Any player adds a friend or a guest to a round under way: a new version, every device gets the card with them, their holes unplayed",
        arguments: TestStore.all)
    func joinUnderWay(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let course = try await h.course(pars: [3, 3, 3])
            let ann = try await h.player("Ann"), ben = try await h.player("Ben"), cleo = try await h.player("Cleo")
            let stranger = try await h.player()
            let card = try await h.startRound(on: course, by: ann, with: [.init(userId: ben.user.id)])
            _ = try await expect(200, h.score(card, player: 0, hole: 1, strokes: 3, as: ann))
            let annPhone = try await h.socket(card, as: ann)
            #expect(try await annPhone.waitFor { $0.type == .card })

            func add(_ player: RoundPlayerRequest, as session: Session) async throws -> TestClient.Response {
                try await h.games.call(GamesAPI.addRoundPlayer, card.id, body: player, token: session.accessToken)
            }
            #expect(try await add(.init(userId: cleo.user.id), as: stranger).status == 404)
            let withCleo = try await expect(200, add(.init(userId: cleo.user.id), as: ben)).decode(Scorecard.self)
            #expect(withCleo.version == 2 && withCleo.players.map(\.name) == ["Ann", "Ben", "Cleo"])
            #expect(withCleo.players[2].holesPlayed == 0 && withCleo.players[0].total == 3)
            #expect(try await annPhone.waitFor { $0.type == .playerAdded && $0.version == 2 && $0.card == withCleo })
            // Cleo sees the round now, and her own line takes scores.
            #expect(try await h.card(card.id, as: cleo) == withCleo)
            _ = try await expect(200, h.score(withCleo, player: 2, hole: 1, strokes: 2, as: cleo))

            let again = try await add(.init(userId: cleo.user.id), as: ann)
            #expect(again.status == 422 && again.problem?.errors?.map(\.field) == ["userId"])
            let unclear = try await add(.init(), as: ann)
            #expect(unclear.status == 422 && unclear.problem?.errors?.map(\.field) == ["userId"])
            let unknown = try await add(.init(userId: UserID()), as: ann)
            #expect(unknown.status == 422 && unknown.problem?.errors?.map(\.field) == ["userId"])
            let withGus = try await expect(200, add(.init(guestName: "Gus"), as: cleo)).decode(Scorecard.self)
            #expect(withGus.players.last?.name == "Gus" && withGus.players.last?.userId == nil)
            // A device that connects later catches up through the same frames.
            let late = try await h.socket(card, as: ben, afterVersion: 1)
            #expect(try await late.waitFor { $0.type == .playerAdded && $0.version == 4 })
            #expect(card.applying(late.messages).players.count == 4)

            _ = try await expect(200, h.games.call(GamesAPI.finishRound, card.id, token: ann.accessToken))
            #expect(try await add(.init(guestName: "Late"), as: ann).status == 409)
            for device in [annPhone, late] { await device.close() }
        }
    }
}
