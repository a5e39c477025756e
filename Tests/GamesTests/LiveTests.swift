import Contracts
import Foundation
import ServiceHTTP
import ServiceKitTesting
import Testing

@Suite("Live scorecards")
struct LiveTests {
    @Test(
        "Every change reaches every connected device of the round with its version, whether sent over HTTP or the socket",
        arguments: TestStore.all)
    func fanOut(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let course = try await h.course()
            let ann = try await h.player("Ann"), ben = try await h.player("Ben")
            let card = try await h.startRound(on: course, by: ann, with: [.init(userId: ben.user.id)])
            let annPhone = try await h.socket(card, as: ann), benPhone = try await h.socket(card, as: ben),
                annWatch = try await h.socket(card, as: ann)
            for device in [annPhone, benPhone, annWatch] {
                #expect(try await device.waitFor { $0.type == .card && $0.card == card })
            }
            _ = try await expect(200, h.score(card, player: 1, hole: 1, strokes: 2, as: ann))
            try benPhone.send(ScoreUpdate(playerId: card.players[0].playerId, hole: 2, strokes: 4))
            for device in [annPhone, benPhone, annWatch] {
                #expect(try await device.waitFor { $0.version == 2 })
                let scores = device.messages.filter { $0.type == .score }
                #expect(scores.map(\.version) == [1, 2])
                #expect(scores.map(\.playerId) == [card.players[1].playerId, card.players[0].playerId])
                #expect(scores.map(\.strokes) == [2, 4] && scores.map(\.hole) == [1, 2])
            }
            // A bad score on the socket is answered to that device only, and changes nothing.
            try annPhone.send(ScoreUpdate(playerId: card.players[0].playerId, hole: 1, strokes: 0))
            annPhone.send(text: "not json")
            #expect(try await annPhone.waitFor { $0.type == .error && $0.problem?.errors?.first?.field == "strokes" })
            #expect(try await annPhone.waitFor { $0.type == .error && $0.problem?.code == "MALFORMED_MESSAGE" })
            try await Task.sleep(for: .milliseconds(100))
            #expect(!benPhone.messages.contains { $0.type == .error })

            _ = try await expect(200, h.games.call(GamesAPI.finishRound, card.id, token: ben.accessToken))
            #expect(try await annWatch.waitFor { $0.type == .finished && $0.version == 3 })
            for device in [annPhone, benPhone, annWatch] { await device.close() }
        }
    }

    @Test("Only signed-in players of the round get a socket; the plain HTTP path says why", arguments: TestStore.all)
    func refusals(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let course = try await h.course()
            let ann = try await h.player(), stranger = try await h.player()
            let card = try await h.startRound(on: course, by: ann)
            await #expect(throws: LiveSocket.Refused.self) { try await h.socket(card, as: stranger) }
            await #expect(throws: LiveSocket.Refused.self) {
                try await LiveSocket.connect(baseURL: h.stack.url(.games), round: card.id, token: "not-a-token")
            }
            await #expect(throws: LiveSocket.Refused.self) {
                try await LiveSocket.connect(baseURL: h.stack.url(.games), round: RoundID(), token: ann.accessToken)
            }
            #expect(try await h.games.call(GamesAPI.liveRound, card.id, token: stranger.accessToken).status == 404)
            #expect(try await h.games.call(GamesAPI.liveRound, card.id).status == 401)
            #expect(try await h.games.call(GamesAPI.liveRound, card.id, token: ann.accessToken).status == 426)
        }
    }

    @Test("A device that reconnects with afterVersion gets exactly what it missed, then live changes", arguments: TestStore.all)
    func resume(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let course = try await h.course()
            let ann = try await h.player(), ben = try await h.player()
            let card = try await h.startRound(on: course, by: ann, with: [.init(userId: ben.user.id)])
            let phone = try await h.socket(card, as: ben)
            _ = try await expect(200, h.score(card, player: 0, hole: 1, strokes: 2, as: ann))
            #expect(try await phone.waitFor { $0.version == 1 })
            let held = card.applying(phone.messages)
            await phone.close()

            // While Ben's phone is off, three changes happen.
            for hole in 2...4 { _ = try await expect(200, h.score(card, player: 1, hole: hole, strokes: 4, as: ann)) }
            let back = try await h.socket(card, as: ben, afterVersion: held.version)
            #expect(try await back.waitFor { $0.version == 4 })
            _ = try await expect(200, h.score(card, player: 1, hole: 5, strokes: 2, as: ann))
            #expect(try await back.waitFor { $0.version == 5 })
            try await Task.sleep(for: .milliseconds(100))
            #expect(back.messages.map(\.version) == [2, 3, 4, 5])
            #expect(held.applying(back.messages) == (try await h.card(card.id, as: ben)))

            // A device from the future, or one that never had the card, is sent the whole card.
            let confused = try await h.socket(card, as: ben, afterVersion: 99)
            #expect(try await confused.waitFor { $0.type == .card && $0.version == 5 })
            await back.close()
            await confused.close()
        }
    }

    @Test(
        "A finished round's changes go after their age but the last, so a device resuming from any version is sent the final card; a round still played keeps its own",
        arguments: TestStore.all)
    func finishedRoundsPruned(store: TestStore) async throws {
        // An age of a tenth of a second (in days), pruned every 50 ms.
        let config = ["games.retention.roundchanges.days": "0.0000012", "games.retention.interval.ms": "50"]
        try await GamesHarness.with(store: store, config: config) { h in
            let course = try await h.course()
            let ann = try await h.player()
            let finished = try await h.startRound(on: course, by: ann), playing = try await h.startRound(on: course, by: ann)
            for card in [finished, playing] {
                for hole in 1...3 { _ = try await expect(200, h.score(card, player: 0, hole: hole, strokes: 3, as: ann)) }
            }
            _ = try await expect(200, h.games.call(GamesAPI.finishRound, finished.id, token: ann.accessToken))
            let final = try await h.card(finished.id, as: ann)
            // Resuming from the start, a device is sent only the finish and the final card once the rest went.
            var resumed: [LiveMessage] = []
            let pruned = try await eventually(within: .seconds(30), every: .milliseconds(100)) {
                let device = try await h.socket(finished, as: ann, afterVersion: 0)
                defer { Task { await device.close() } }
                guard try await device.waitFor({ $0.version == final.version }) else { return false }
                resumed = device.messages
                return resumed.count == 1
            }
            #expect(pruned, "\(resumed)")
            #expect(resumed.first?.type == .finished && resumed.first?.card == final)
            // The same pass left every change of the round still played.
            let device = try await h.socket(playing, as: ann, afterVersion: 0)
            #expect(try await device.waitFor { $0.version == 3 })
            #expect(device.messages.map(\.version) == [1, 2, 3])
            await device.close()
        }
    }

    @Test("Two devices writing at once, to different cells and to the same cell, end with one card everywhere", arguments: TestStore.all)
    func concurrentWriters(store: TestStore) async throws {
        try await GamesHarness.with(store: store) { h in
            let course = try await h.course()
            let ann = try await h.player(), ben = try await h.player()
            let card = try await h.startRound(on: course, by: ann, with: [.init(userId: ben.user.id)])
            let annPhone = try await h.socket(card, as: ann), benPhone = try await h.socket(card, as: ben)
            #expect(try await annPhone.waitFor { $0.type == .card })
            #expect(try await benPhone.waitFor { $0.type == .card })
            // Different cells: each phone scores its own player on every hole; the same cell: both
            // phones score hole 9 of Ann many times with different values.
            for hole in 1...8 {
                try annPhone.send(ScoreUpdate(playerId: card.players[0].playerId, hole: hole, strokes: 2))
                try benPhone.send(ScoreUpdate(playerId: card.players[1].playerId, hole: hole, strokes: 4))
            }
            for round in 0..<10 {
                try annPhone.send(ScoreUpdate(playerId: card.players[0].playerId, hole: 9, strokes: 2 + round % 3))
                try benPhone.send(ScoreUpdate(playerId: card.players[0].playerId, hole: 9, strokes: 5 + round % 2))
            }
            // Each socket's messages are applied in order, so once both closing marks (two values
            // of Ben's hole 9) have arrived everywhere, everything sent before them has been applied.
            try annPhone.send(ScoreUpdate(playerId: card.players[1].playerId, hole: 9, strokes: 7))
            try benPhone.send(ScoreUpdate(playerId: card.players[1].playerId, hole: 9, strokes: 8))
            // Each phone's 39 scores are applied one after the other: on a machine running the whole
            // suite that has taken longer than 20 s, so the wait is for behaviour, not speed.
            for device in [annPhone, benPhone] {
                for mark in [7, 8] {
                    #expect(
                        try await device.waitFor(timeout: .seconds(90)) {
                            $0.playerId == card.players[1].playerId && $0.hole == 9 && $0.strokes == mark
                        })
                }
            }
            let final = try await h.card(card.id, as: ann)
            #expect(final.players[0].scores.prefix(8).allSatisfy { $0.strokes == 2 })
            #expect(final.players[1].scores.prefix(8).allSatisfy { $0.strokes == 4 })
            #expect(card.applying(annPhone.messages) == final)
            #expect(card.applying(benPhone.messages) == final)
            for device in [annPhone, benPhone] {
                let versions = device.messages.filter { $0.type == .score }.map(\.version)
                #expect(versions == Array(1...final.version))
            }
            await annPhone.close()
            await benPhone.close()
        }
    }

    @Test(
        "With PostgreSQL, a change written on one instance reaches devices connected to another", .enabled(if: TestStore.postgresURL != nil)
    )
    func acrossInstances() async throws {
        let shared = try await TestStore.postgres.freshDatabaseURL()
        try await GamesHarness.with(store: .postgres, config: ["games.db.url": shared]) { h in
            let elsewhere = [ServiceModule.auth: h.stack.url(.auth), .catalog: h.stack.url(.catalog)]
            let gamesOnly = GamesHarness.builders.filter { $0.module == .games }
            try await TestStack.with(gamesOnly, store: .postgres, config: ["games.db.url": shared], directory: elsewhere) { second in
                let course = try await h.course()
                let ann = try await h.player(), ben = try await h.player()
                let card = try await h.startRound(on: course, by: ann, with: [.init(userId: ben.user.id)])
                let annPhone = try await h.socket(card, as: ann)
                let benPhone = try await LiveSocket.connect(baseURL: second.url(.games), round: card.id, token: ben.accessToken)
                #expect(try await benPhone.waitFor { $0.type == .card && $0.card == card })

                // Written on the first instance, seen on the second; and the other way round.
                _ = try await expect(200, h.score(card, player: 0, hole: 1, strokes: 2, as: ann))
                #expect(try await benPhone.waitFor { $0.version == 1 && $0.strokes == 2 })
                try benPhone.send(ScoreUpdate(playerId: card.players[1].playerId, hole: 1, strokes: 5))
                #expect(try await annPhone.waitFor { $0.version == 2 && $0.strokes == 5 })
                let viaSecond = try await expect(
                    200, TestClient(baseURL: second.url(.games)).call(GamesAPI.round, card.id, token: ben.accessToken))
                #expect(try viaSecond.decode(Scorecard.self).version == 2)
                #expect(try await benPhone.waitFor { $0.version == 2 })
                #expect(benPhone.messages.filter { $0.type == .score }.map(\.version) == [1, 2])
                await annPhone.close()
                await benPhone.close()
            }
        }
    }
}
