import Contracts
import Foundation
import HuddleKit
import NIOConcurrencyHelpers
import ServiceKitTesting
import Testing

/// HuddleKit's live scorecard: a socket cut mid-round costs the app nothing.
@Suite("HuddleKit live scorecard", .serialized)
struct LiveScorecardTests {
    @Test("a scorecard stream whose socket is cut mid-round delivers every version once, in order, to the finish")
    func resumesAfterCut() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let admin = try await StackTests.administrator(gateway)
            let course = try await StackTests.nineHoleCourse("Cut Park", at: Location(lat: 58.98, lng: 26.25), by: admin, through: gateway)
            let tokens = InMemoryTokenStore()
            let scorer = HuddleKitTests.client(gateway, tokens: tokens)
            try await scorer.register(email: HuddleKitTests.email(), password: "kit password 1", name: "Ann Anhyzer")
            let card = try await scorer.send(GamesAPI.startRound, body: StartRoundRequest(courseId: course.id, players: []))

            // Another phone of the same player follows the card; its first socket is cut after three messages.
            let cutting = CuttingLiveTransport(inner: WebSocketLiveTransport(), cutAfter: 3)
            let follower = HuddleClient(
                baseURL: URL(string: gateway.baseURL)!, liveTransport: cutting, tokens: InMemoryTokenStore(await tokens.load()),
                retry: RetryPolicy(retries: 3, baseDelay: .milliseconds(20), maxDelay: .milliseconds(200)))
            let (cardShown, cardShownInput) = AsyncStream<Void>.makeStream()
            let received = Task {
                var messages: [LiveMessage] = []
                for try await message in follower.liveScorecard(card.id) {
                    messages.append(message)
                    cardShownInput.yield()
                }
                return messages
            }
            // Scoring starts once the follower shows the card, so the cut falls mid-round.
            var shown = cardShown.makeAsyncIterator()
            _ = await shown.next()
            let player = card.players[0].playerId
            for hole in 1...9 {
                _ = try await scorer.send(GamesAPI.score, card.id, body: ScoreUpdate(playerId: player, hole: hole, strokes: 4))
                try await Task.sleep(for: .milliseconds(20))
            }
            _ = try await scorer.send(GamesAPI.finishRound, card.id)
            let messages = try await received.value

            #expect(cutting.connections >= 2)
            #expect(messages.first?.type == .card && messages.first?.version == 0)
            #expect(messages.filter { $0.type == .score }.map(\.version) == Array(1...9))
            #expect(messages.last?.type == .finished)
        }
    }
    @Test("a stream the app stops reading closes its socket")
    func stopsWhenNotRead() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let admin = try await StackTests.administratorApp(gateway)
            let holes = [Hole(number: 1, par: 3, tee: Coordinates(lat: 58.98, lng: 26.25), basket: Coordinates(lat: 58.981, lng: 26.25))]
            let course = try await admin.send(
                CatalogAPI.createCourse,
                body: CreateCourseRequest(name: "Short Park", location: Location(lat: 58.98, lng: 26.25), holes: holes))
            let tokens = InMemoryTokenStore()
            let player = HuddleKitTests.client(gateway, tokens: tokens)
            try await player.register(email: HuddleKitTests.email(), password: "kit password 1", name: "Ann Anhyzer")
            let card = try await player.send(GamesAPI.startRound, body: StartRoundRequest(courseId: course.id, players: []))
            let recording = CuttingLiveTransport(inner: WebSocketLiveTransport(), cutAfter: .max)
            let follower = HuddleClient(
                baseURL: URL(string: gateway.baseURL)!, liveTransport: recording, tokens: InMemoryTokenStore(await tokens.load()))
            for try await message in follower.liveScorecard(card.id) {
                #expect(message.type == .card)
                break
            }
            #expect(try await eventually { recording.closed })
            #expect(recording.connections == 1)
        }
    }
}

/// Cuts the first socket after `cutAfter` messages, as a dropped connection would; later sockets
/// are left alone. Counts the sockets opened and those the client closed.
final class CuttingLiveTransport: LiveTransport {
    private let inner: any LiveTransport
    private let cutAfter: Int
    private let opened = NIOLockedValueBox(0)
    private let closes = NIOLockedValueBox(0)

    init(inner: any LiveTransport, cutAfter: Int) {
        self.inner = inner
        self.cutAfter = cutAfter
    }

    var connections: Int { opened.withLockedValue { $0 } }
    /// Whether every socket opened has been closed by the client.
    var closed: Bool { connections > 0 && closes.withLockedValue { $0 } >= connections }

    func connect(to url: URL, headers: [String: String]) async throws -> any LiveConnection {
        let connection = try await inner.connect(to: url, headers: headers)
        let number = opened.withLockedValue { count in
            count += 1
            return count
        }
        return CutConnection(inner: connection, remaining: NIOLockedValueBox(number == 1 ? cutAfter : .max), closes: closes)
    }

    struct CutConnection: LiveConnection {
        let inner: any LiveConnection
        let remaining: NIOLockedValueBox<Int>
        let closes: NIOLockedValueBox<Int>

        func receive() async throws -> String? {
            guard remaining.withLockedValue({ $0 }) > 0 else {
                await inner.close()
                throw TransportFailure("connection cut")
            }
            let text = try await inner.receive()
            remaining.withLockedValue { $0 -= 1 }
            return text
        }

        func send(_ text: String) async throws { try await inner.send(text) }
        func close() async {
            closes.withLockedValue { $0 += 1 }
            await inner.close()
        }
    }
}
