import Contracts
import Foundation
import HuddleKit
import Testing

/// Two phones on a course without signal, through a proxy the test cuts between them and a running
/// Huddle (its gateway at `HUDDLE_GATEWAY_URL`; CI starts one). They score an 18-hole round of four
/// players for ten simulated minutes — the same cells now and then, one cleared by one phone and scored
/// by the other, one phone restarted half-way — and send chat messages; then the signal returns.
@Suite("Offline through a proxy", .enabled(if: RunningStack.gateway != nil, "HUDDLE_GATEWAY_URL names no gateway"))
struct OfflineRoundTests {
    /// One write a phone made offline: a score, or a clear when `strokes` is nil.
    struct Cell: Hashable {
        let player: RoundPlayerID
        let hole: Int
    }

    @Test(
        "back online, both cards equal the server's within 2 s: every cell one phone wrote last as it wrote it, shared cells one of the two, nothing doubled; chat messages once and in order"
    )
    func twoPhonesScoreOffline() async throws {
        let base = try #require(RunningStack.gateway)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("offline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = SimulatedClock()
        let (annLink, boLink) = (CuttableLink(), CuttableLink())
        let (annTokens, boTokens) = (InMemoryTokenStore(), InMemoryTokenStore())
        func phone(_ name: String, _ link: CuttableLink, _ tokens: InMemoryTokenStore) -> HuddleClient {
            HuddleClient(
                baseURL: base, transport: link, tokens: tokens, retry: RetryPolicy(retries: 1, baseDelay: .milliseconds(20)),
                keptReads: KeptReads(directory: folder.appendingPathComponent("\(name)/kept")),
                queuedWrites: QueuedWrites(file: folder.appendingPathComponent("\(name)/queue.json")), now: { clock.now })
        }
        var ann = phone("ann", annLink, annTokens)
        let bo = phone("bo", boLink, boTokens)
        let run = UUID().uuidString.prefix(8).lowercased()
        _ = try await ann.register(email: "ann-\(run)@example.com", password: "offline password 1", name: "Ann Offline")
        let boUser = try await bo.register(email: "bo-\(run)@example.com", password: "offline password 2", name: "Bo Offline")
        let holes = (1...18).map { ScorecardHole(number: $0, par: 3 + $0 % 3) }
        let started = try await ann.send(
            GamesAPI.startRound,
            body: StartRoundRequest(
                course: UnlistedCourse(name: "Forest \(run)", holes: holes),
                players: [RoundPlayerRequest(userId: boUser.id), RoundPlayerRequest(guestName: "Cy"), RoundPlayerRequest(guestName: "Di")]))
        let players = started.players.map(\.playerId)
        try #require(players.count == 4)
        // Both phones read the card and their rooms while they have signal.
        _ = try await ann.read(GamesAPI.round, started.id)
        _ = try await bo.read(GamesAPI.round, started.id)
        let global = try #require(try await ann.read(ChatAPI.rooms).value.items.first { $0.kind == .global })

        annLink.setCut(true)
        boLink.setCut(true)
        // Ann keeps the card of Ann and Cy, Bo of Bo and Di; both score hole 7 for everyone (differently);
        // Ann corrects her own hole 1; Ann clears Di's hole 12, which Bo scored; a message now and then.
        var annWrites: [(Cell, Int?)] = [], boWrites: [(Cell, Int?)] = []
        var annMessages: [String] = [], boMessages: [String] = []
        for hole in 1...18 {
            for (index, player) in players.enumerated() {
                let cell = Cell(player: player, hole: hole)
                let strokes = 2 + (hole + index) % 4
                if index % 2 == 0 || hole == 7 { annWrites.append((cell, hole == 7 ? strokes + 1 : strokes)) }
                if index % 2 == 1 || hole == 7 { boWrites.append((cell, strokes)) }
            }
            if hole == 1 { annWrites.append((Cell(player: players[0], hole: 1), 3)) }
            if hole == 13 { annWrites.append((Cell(player: players[3], hole: 12), nil)) }
            if hole % 6 == 0 {
                annMessages.append("ann \(run) after hole \(hole)")
                boMessages.append("bo \(run) after hole \(hole)")
            }
        }
        // Ten minutes on the course: each phone makes its writes in turn, the clock moving on.
        let step = 600.0 / Double(annWrites.count + boWrites.count)
        var restarted = false
        for index in 0..<max(annWrites.count, boWrites.count) {
            for (phone, writes) in [(ann, annWrites), (bo, boWrites)] where index < writes.count {
                let (cell, strokes) = writes[index]
                if let strokes {
                    try await phone.queue(
                        GamesAPI.score, started.id, body: ScoreUpdate(playerId: cell.player, hole: cell.hole, strokes: strokes))
                } else {
                    try await phone.queue(GamesAPI.clearScore, started.id, cell.player, cell.hole)
                }
                clock.advance(step)
            }
            if index % 12 == 11 {
                let message = index / 12
                if message < annMessages.count {
                    try await ann.queue(
                        ChatAPI.send, global.id, body: SendChatMessage(text: annMessages[message], clientMessageId: UUID().uuidString))
                    try await bo.queue(
                        ChatAPI.send, global.id, body: SendChatMessage(text: boMessages[message], clientMessageId: UUID().uuidString))
                }
            }
            // Half-way, Ann's app is closed and opened again: her queue and kept card are on the device.
            if !restarted, index == annWrites.count / 2 {
                restarted = true
                ann = phone("ann", annLink, annTokens)
                let kept = try await ann.read(GamesAPI.round, started.id)
                #expect(kept.isStale && kept.value.id == started.id)
            }
        }
        let queuedAnn = await ann.queuedWrites!.pending.count, queuedBo = await bo.queuedWrites!.pending.count
        #expect(queuedAnn == annWrites.count + annMessages.count && queuedBo == boWrites.count + boMessages.count)

        // The signal returns; Ann's first answer is lost on the way back, so that write is sent twice.
        annLink.loseNextAnswers(1)
        annLink.setCut(false)
        boLink.setCut(false)
        let back = ContinuousClock.now
        async let annDone = Self.drain(ann)
        async let boDone = Self.drain(bo)
        let (annDrained, boDrained) = try await (annDone, boDone)
        #expect(annDrained && boDrained)
        let annCard = try await ann.read(GamesAPI.round, started.id), boCard = try await bo.read(GamesAPI.round, started.id)
        let server = try await HuddleClient(baseURL: base, tokens: boTokens).send(GamesAPI.round, started.id)
        let converged = ContinuousClock.now - back
        #expect(!annCard.isStale && !boCard.isStale)
        #expect(annCard.value == server && boCard.value == server, "the phones' cards differ from the server's")
        #expect(converged < .seconds(2), "converged in \(converged)")

        // Nothing lost: a cell one phone wrote last has that phone's last value; a cell both wrote has one of their last values.
        let annLast = Dictionary(annWrites.map { ($0.0, $0.1) }, uniquingKeysWith: { _, last in last })
        let boLast = Dictionary(boWrites.map { ($0.0, $0.1) }, uniquingKeysWith: { _, last in last })
        for line in server.players {
            for score in line.scores {
                let cell = Cell(player: line.playerId, hole: score.hole)
                switch (annLast[cell], boLast[cell]) {
                case (.some(let annValue), .some(let boValue)):
                    #expect(score.strokes == annValue || score.strokes == boValue, "hole \(score.hole) of \(line.name)")
                case (.some(let value), nil), (nil, .some(let value)):
                    #expect(score.strokes == value, "hole \(score.hole) of \(line.name)")
                case (nil, nil):
                    #expect(score.strokes == nil)
                }
            }
            // Nothing doubled: the total is the sum of the cells.
            #expect(line.total == line.scores.compactMap(\.strokes).reduce(0, +))
        }
        // Each write made at most one version; the one sent twice made none the second time.
        #expect(server.version - started.version <= annWrites.count + boWrites.count)

        // The messages arrived once each, in the order each phone sent them.
        let history = try await bo.send(ChatAPI.messages, global.id, query: Query.limit(100)).items.reversed()
        let texts = history.map(\.text).filter { $0.contains(String(run)) }
        #expect(texts.filter { $0.hasPrefix("ann") } == annMessages && texts.filter { $0.hasPrefix("bo") } == boMessages)
    }

    /// Sends the phone's queue until it is empty (an answer lost on the way stops one pass); false
    /// when it does not empty.
    static func drain(_ phone: HuddleClient) async throws -> Bool {
        for _ in 0..<5 {
            for outcome in await phone.sendQueuedWrites() {
                if case .refused(let write, let error) = outcome { Issue.record("\(write.operation) refused: \(error)") }
            }
            if await phone.queuedWrites!.pending.isEmpty { return true }
        }
        return false
    }
}

/// The Huddle the journeys run against: its gateway's address in `HUDDLE_GATEWAY_URL`.
enum RunningStack {
    static let gateway = ProcessInfo.processInfo.environment["HUDDLE_GATEWAY_URL"].flatMap(URL.init(string:))
}
