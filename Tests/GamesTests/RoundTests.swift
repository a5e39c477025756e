import Contracts
import Foundation
import NIOHTTP1
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import Testing

@Suite("Disc golf rounds")
struct RoundTests {
    @Test(
        "A round copies the course's holes and pars, starts with no hole played, and exists only for its players", arguments: TestStore.all)
    func start(store: TestStore) async throws {
        try await RecordingSubscriber.with(standingIn: .notify) { subscriber in
            try await GamesHarness.with(store: store, config: ["games.events.subscribers": "notify"], directory: [.notify: subscriber.url])
            { h in
                let course = try await h.course(pars: [3, 4, 3, 5])
                let ann = try await h.player("Ann"), ben = try await h.player("Ben"), stranger = try await h.player()
                let card = try await h.startRound(on: course, by: ann, with: [.init(userId: ben.user.id), .init(guestName: " Gus Guest ")])
                #expect(
                    card.holes == [.init(number: 1, par: 3), .init(number: 2, par: 4), .init(number: 3, par: 3), .init(number: 4, par: 5)])
                #expect(card.players.map(\.name) == ["Ann", "Ben", "Gus Guest"])
                #expect(card.players.map(\.userId) == [ann.user.id, ben.user.id, nil])
                #expect(
                    card.players.allSatisfy {
                        $0.total == 0 && $0.toPar == 0 && $0.holesPlayed == 0 && $0.scores.map(\.hole) == [1, 2, 3, 4]
                            && $0.scores.allSatisfy { $0.strokes == nil }
                    })
                #expect(card.version == 0 && card.status == .ongoing && card.courseName == course.name && card.currentHole == 1)

                #expect(try await h.card(card.id, as: ben) == card)
                #expect(try await h.games.call(GamesAPI.round, card.id, token: stranger.accessToken).status == 404)

                // Editing the course later leaves the round as it started.
                let admin = try await h.administrator()
                let edit = UpdateHoleRequest(par: 5, tee: course.holes[0].tee, basket: course.holes[0].basket)
                _ = try await expect(200, h.catalog.call(CatalogAPI.saveHole, course.id, "1", body: edit, token: admin.accessToken))
                #expect(try await h.card(card.id, as: ann).holes[0].par == 3)

                // Ben was added by Ann: the event names him, for notify to tell him.
                try await subscriber.waitFor(count: 1)
                let started = try #require(subscriber.events.first)
                #expect(started.type == RoundEvent.started.name)
                let payload = try HuddleJSON.decoder.decode(RoundEvent.RoundChanged.self, from: started.payload)
                #expect(payload.addedUserIds == [ben.user.id] && payload.scorecard.id == card.id)
            }
        }
    }

    @Test("Starting a round refuses an unknown course or player and unclear entries; a catalog that is down is a 503")
    func startRefusals() async throws {
        try await GamesHarness.with { h in
            let ann = try await h.player()
            let course = try await h.course()
            let unknownCourse = try await h.games.call(
                GamesAPI.startRound, body: StartRoundRequest(courseId: CourseID()), token: ann.accessToken)
            #expect(unknownCourse.status == 422 && unknownCourse.problem?.errors?.map(\.field) == ["courseId"])
            let unknownUser = try await h.games.call(
                GamesAPI.startRound,
                body: StartRoundRequest(courseId: course.id, players: [.init(guestName: "Gus"), .init(userId: UserID())]),
                token: ann.accessToken)
            #expect(unknownUser.status == 422 && unknownUser.problem?.errors?.map(\.field) == ["players[1].userId"])
            let unclear = try await h.games.call(
                GamesAPI.startRound,
                body: StartRoundRequest(
                    courseId: course.id, players: [.init(), .init(userId: ann.user.id, guestName: "Both"), .init(guestName: "  ")]),
                token: ann.accessToken)
            #expect(unclear.problem?.errors?.map(\.field) == ["players[2].guestName"])
            let ambiguous = try await h.games.call(
                GamesAPI.startRound,
                body: StartRoundRequest(courseId: course.id, players: [.init(), .init(userId: ann.user.id, guestName: "Both")]),
                token: ann.accessToken)
            #expect(ambiguous.problem?.errors?.map(\.field) == ["players[0]", "players[1]"])
            let crowd = StartRoundRequest(courseId: course.id, players: (0..<20).map { .init(guestName: "Guest \($0)") })
            #expect(
                try await h.games.call(GamesAPI.startRound, body: crowd, token: ann.accessToken).problem?.errors?.map(\.field) == [
                    "players"
                ])

            h.stack.runner.directory.set(.catalog, url: "http://127.0.0.1:1")
            #expect(
                try await h.games.call(GamesAPI.startRound, body: StartRoundRequest(courseId: course.id), token: ann.accessToken).status
                    == 503)
            let mine = try await h.games.call(GamesAPI.myRounds, query: Query.mineScope(.mine), token: ann.accessToken).decode(
                Page<Scorecard>.self)
            #expect(mine.items.isEmpty)
        }
    }

    @Test("Players write scores; each change bumps the version; bad scores are refused and change nothing", arguments: TestStore.all)
    func scores(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let course = try await h.course(pars: [3, 4, 3])
            let ann = try await h.player("Ann"), ben = try await h.player("Ben"), stranger = try await h.player()
            let card = try await h.startRound(on: course, by: ann, with: [.init(userId: ben.user.id), .init(guestName: "Gus")])

            let first = try await expect(200, h.score(card, player: 1, hole: 2, strokes: 2, as: ann)).decode(Scorecard.self)
            #expect(first.version == 1 && first.currentHole == 2)
            // Totals count the holes played: one, an eagle.
            #expect(first.players[1].total == 2 && first.players[1].toPar == -2 && first.players[1].holesPlayed == 1)
            #expect(first.players[1].scores.map(\.strokes) == [nil, 2, nil])
            // A guest's score is kept by a registered player.
            let second = try await expect(200, h.score(first, player: 2, hole: 1, strokes: 6, as: ben)).decode(Scorecard.self)
            #expect(second.version == 2 && second.players[2].toPar == 3)
            // The same value again (a retry) makes no new version.
            #expect(try await h.score(card, player: 2, hole: 1, strokes: 6, as: ben).decode(Scorecard.self).version == 2)

            for (strokes, hole, field) in [(0, 1, "strokes"), (21, 1, "strokes"), (3, 4, "hole")] {
                let refused = try await h.score(card, player: 0, hole: hole, strokes: strokes, as: ann)
                #expect(refused.status == 422 && refused.problem?.errors?.map(\.field) == [field])
            }
            let unknownPlayer = try await h.games.call(
                GamesAPI.score, card.id, body: ScoreUpdate(playerId: RoundPlayerID(), hole: 1, strokes: 3), token: ann.accessToken)
            #expect(unknownPlayer.problem?.errors?.map(\.field) == ["playerId"])
            #expect(try await h.score(card, player: 0, hole: 1, strokes: 2, as: stranger).status == 404)

            // A client that was behind learns it, with the card as it stands.
            let stale = try await h.score(card, player: 0, hole: 1, strokes: 2, as: ann, expectedVersion: 1)
            #expect(stale.status == 409)
            let conflict = try stale.decode(ScoreConflict.self)
            #expect(conflict.code == "VERSION_CONFLICT" && conflict.scorecard == second)
            #expect(
                try await h.score(card, player: 0, hole: 1, strokes: 2, as: ann, expectedVersion: 2).decode(Scorecard.self).version == 3)
            #expect(try await h.card(card.id, as: ann).version == 3)
            // A par is a score like any other: "parred 2" is not "has not played 2".
            let par = try await expect(200, h.score(card, player: 0, hole: 2, strokes: 4, as: ann)).decode(Scorecard.self)
            #expect(par.version == 4 && par.players[0].scores.map(\.strokes) == [2, 4, nil] && par.players[0].holesPlayed == 2)
            #expect(par.players[0].total == 6 && par.players[0].toPar == -1)
        }
    }

    @Test(
        "A cleared cell is a hole not played: a new version, live to devices as a score without strokes; clearing again changes nothing; the last write to a cell wins",
        arguments: TestStore.all)
    func clear(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let course = try await h.course(pars: [3, 4, 3])
            let ann = try await h.player("Ann"), ben = try await h.player("Ben"), stranger = try await h.player()
            let card = try await h.startRound(on: course, by: ann, with: [.init(userId: ben.user.id)])
            let phone = try await h.socket(card, as: ben)
            let scored = try await expect(200, h.score(card, player: 1, hole: 2, strokes: 5, as: ben)).decode(Scorecard.self)
            let ids = (card.id, card.players[1].playerId)
            let cleared = try await expect(200, h.games.call(GamesAPI.clearScore, ids.0, ids.1, 2, token: ann.accessToken))
                .decode(Scorecard.self)
            #expect(cleared.version == scored.version + 1 && cleared.players[1].scores.map(\.strokes) == [nil, nil, nil])
            #expect(cleared.players[1].total == 0 && cleared.players[1].holesPlayed == 0)
            #expect(
                try await h.games.call(GamesAPI.clearScore, ids.0, ids.1, 2, token: ann.accessToken).decode(Scorecard.self).version == 2)
            // The device that held the score is told of the clear, and ends on the server's card.
            #expect(try await phone.waitFor { $0.version == 2 })
            #expect(phone.messages.last?.type == .score && phone.messages.last?.strokes == nil)
            #expect(card.applying(phone.messages) == (try await h.card(card.id, as: ben)))
            // Scored again after the clear: the later write is the cell's value.
            let again = try await expect(200, h.score(card, player: 1, hole: 2, strokes: 3, as: ann)).decode(Scorecard.self)
            #expect(again.players[1].scores.map(\.strokes) == [nil, 3, nil])

            #expect(try await h.games.call(GamesAPI.clearScore, ids.0, ids.1, 2, token: stranger.accessToken).status == 404)
            #expect(
                try await h.games.call(GamesAPI.clearScore, ids.0, ids.1, 9, token: ann.accessToken).problem?.errors?.map(\.field) == [
                    "hole"
                ])
            #expect(
                try await h.games.call(GamesAPI.clearScore, ids.0, RoundPlayerID(), 2, token: ann.accessToken).problem?.errors?.map(\.field)
                    == ["playerId"])
            _ = try await expect(200, h.games.call(GamesAPI.finishRound, card.id, token: ann.accessToken))
            #expect(try await h.games.call(GamesAPI.clearScore, ids.0, ids.1, 2, token: ann.accessToken).problem?.code == "ROUND_FINISHED")
            await phone.close()
        }
    }

    @Test("Any player finishes a round; then it is read-only and listed as completed", arguments: TestStore.all)
    func finish(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let course = try await h.course()
            let ann = try await h.player(), ben = try await h.player(), stranger = try await h.player()
            let card = try await h.startRound(on: course, by: ann, with: [.init(userId: ben.user.id)])
            let other = try await h.startRound(on: course, by: ann)
            #expect(try await h.games.call(GamesAPI.finishRound, card.id, token: stranger.accessToken).status == 404)
            let finished = try await expect(200, h.games.call(GamesAPI.finishRound, card.id, token: ben.accessToken)).decode(
                Scorecard.self)
            #expect(finished.status == .completed && finished.version == 1 && finished.finishedAt != nil)
            #expect(try await h.games.call(GamesAPI.finishRound, card.id, token: ann.accessToken).decode(Scorecard.self).version == 1)
            let late = try await h.score(card, player: 0, hole: 1, strokes: 2, as: ann)
            #expect(late.status == 409 && late.problem?.code == "ROUND_FINISHED")

            let completed = try await h.games.call(
                GamesAPI.myRounds, query: Query.mineScope(.mine) + GamesAPI.roundStatus(.completed), token: ann.accessToken
            ).decode(
                Page<Scorecard>.self)
            #expect(completed.items.map(\.id) == [card.id])
            let ongoing = try await h.games.call(
                GamesAPI.myRounds, query: Query.mineScope(.mine) + GamesAPI.roundStatus(.ongoing), token: ann.accessToken
            ).decode(
                Page<Scorecard>.self)
            #expect(ongoing.items.map(\.id) == [other.id])
            let all = try await h.games.call(GamesAPI.myRounds, query: Query.mineScope(.mine) + Query.limit(1), token: ann.accessToken)
                .decode(
                    Page<Scorecard>.self)
            #expect(all.items.map(\.id) == [other.id] && all.nextCursor != nil)
            let rest = try await h.games.call(
                GamesAPI.myRounds, query: Query.mineScope(.mine) + Query.limit(1) + Query.cursor(all.nextCursor!), token: ann.accessToken
            ).decode(
                Page<Scorecard>.self)
            #expect(rest.items.map(\.id) == [card.id])
            #expect(
                try await h.games.call(GamesAPI.myRounds, rawQuery: "scope=mine&status=paused", token: ann.accessToken).problem?.errors?
                    .map(
                        \.field) == [
                        "status"
                    ])
            #expect(
                try await h.games.call(GamesAPI.myRounds, query: Query.mineScope(.mine), token: stranger.accessToken).decode(
                    Page<Scorecard>.self
                )
                .items.isEmpty)
        }
    }

    @Test("Stats: rounds played, each course's record and average, and how the holes ended; guests have none", arguments: TestStore.all)
    func stats(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let rakke = try await h.course(pars: [3, 3, 4], name: "Rakke")
            let pirita = try await h.course(pars: [3, 5], name: "Pirita")
            let ann = try await h.player("Ann"), viewer = try await h.player()
            // Rakke twice (10 and 8 strokes), Pirita once (6), and one round left unfinished.
            let plays: [(Course, [Int])] = [(rakke, [3, 3, 4]), (rakke, [1, 2, 5]), (pirita, [2, 4])]
            var records: [RoundID] = []
            for (course, strokes) in plays {
                let card = try await h.startRound(on: course, by: ann, with: [.init(guestName: "Gus")])
                for (index, value) in strokes.enumerated() {
                    _ = try await expect(200, h.score(card, player: 0, hole: index + 1, strokes: value, as: ann))
                }
                _ = try await expect(200, h.games.call(GamesAPI.finishRound, card.id, token: ann.accessToken))
                records.append(card.id)
            }
            let unfinished = try await h.startRound(on: rakke, by: ann)
            _ = try await h.score(unfinished, player: 0, hole: 1, strokes: 1, as: ann)
            // A round finished after one hole (a birdie): the hole counts, the round sets no record.
            let short = try await h.startRound(on: rakke, by: ann)
            _ = try await expect(200, h.score(short, player: 0, hole: 1, strokes: 2, as: ann))
            _ = try await expect(200, h.games.call(GamesAPI.finishRound, short.id, token: ann.accessToken))

            let stats = try await expect(200, h.games.call(GamesAPI.stats, ann.user.id, token: viewer.accessToken)).decode(
                PlayerStats.self)
            #expect(stats.roundsPlayed == 4)
            #expect(stats.courses.map(\.courseName) == ["Pirita", "Rakke"])
            let rakkeStats = try #require(stats.courses.last)
            #expect(rakkeStats.roundsPlayed == 2 && rakkeStats.averageTotal == 9)
            #expect(rakkeStats.best.total == 8 && rakkeStats.best.toPar == -2 && rakkeStats.best.roundId == records[1])
            #expect(stats.courses.first?.best.total == 6 && stats.courses.first?.best.toPar == -2)
            // Holes: 3,3,4 (three pars); 1,2,5 (ace, birdie, bogey); 2,4 (birdie, birdie); 2 (birdie), no more.
            #expect(stats.scores == ScoreCounts(aces: 1, eagles: 0, birdies: 4, pars: 3, bogeys: 1, doubleBogeys: 0))

            let nobody = try await h.games.call(GamesAPI.stats, UserID(), token: viewer.accessToken).decode(PlayerStats.self)
            #expect(nobody.roundsPlayed == 0 && nobody.courses.isEmpty)
            #expect(try await h.games.call(GamesAPI.stats, ann.user.id).status == 401)
        }
    }
}
