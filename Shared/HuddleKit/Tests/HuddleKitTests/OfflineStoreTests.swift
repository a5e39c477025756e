import Contracts
import Foundation
import HuddleKit
import Testing

/// What a phone keeps and queues, without a server: the store's bound and its files, and a queue that
/// outlives the app and refuses what must stay online.
@Suite("What a phone keeps")
struct OfflineStoreTests {
    @Test("kept answers survive a restart, the least recently used go first past the bound, and clearing removes the files")
    func keptReadsAreBounded() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kept-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = CuttableLink(
            upstream: Answering { request in
                HTTPResponse(
                    status: 200, headers: ["ETag": "\"\(request.url.path)\""],
                    body: Data(#"{"id":"soccer","name":"\#(String(repeating: "x", count: 400))"}"#.utf8))
            })
        let huddle = HuddleClient(
            baseURL: URL(string: "http://huddle.test")!, transport: link, keptReads: KeptReads(directory: directory, capacityBytes: 1_000))
        for sport in ["a", "b", "c"] {
            _ = try await huddle.read(Endpoint<Anyone, NoBody, SportInfo>(.get, "/v1/sports/\(sport)", owner: .catalog, summary: ""))
        }
        #expect(try await huddle.keptReads!.sizeBytes <= 1_000)

        // After a restart, offline: the two most recent answers are there, stale; the first was dropped.
        link.setCut(true)
        let restarted = HuddleClient(
            baseURL: URL(string: "http://huddle.test")!, transport: link, keptReads: KeptReads(directory: directory, capacityBytes: 1_000))
        for sport in ["b", "c"] {
            let kept = try await restarted.read(
                Endpoint<Anyone, NoBody, SportInfo>(.get, "/v1/sports/\(sport)", owner: .catalog, summary: ""))
            #expect(kept.isStale)
        }
        await #expect(throws: HuddleError.self) {
            _ = try await restarted.read(Endpoint<Anyone, NoBody, SportInfo>(.get, "/v1/sports/a", owner: .catalog, summary: ""))
        }
        await restarted.keptReads!.clear()
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test("queued writes outlive the app and are sent in order; a deletion is not queued; a refusal is reported, not retried")
    func queuedWritesOutliveTheApp() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("queue-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let seen = Seen()
        let link = CuttableLink(
            upstream: Answering { request in
                await seen.add(request)
                let refused = request.url.path.hasSuffix("/read")
                return HTTPResponse(
                    status: refused ? 404 : 200, headers: [:],
                    body: Data((refused ? #"{"code":"NOT_FOUND","status":404,"title":"Not found","type":"about:blank"}"# : "{}").utf8))
            })
        link.setCut(true)
        let signedIn = StoredSession(
            session: Session(
                user: SessionUser(id: UserID(), email: "p@example.com", name: "P", pictureUrl: nil), accessToken: "token",
                refreshToken: "refresh", expiresIn: 3_600),
            accessTokenExpiresAt: Date().addingTimeInterval(3_600))
        let phone = HuddleClient(
            baseURL: URL(string: "http://huddle.test")!, transport: link, tokens: InMemoryTokenStore(signedIn),
            queuedWrites: QueuedWrites(file: file))
        let room = RoomID()
        for text in ["one", "two"] {
            try await phone.queue(ChatAPI.send, room, body: SendChatMessage(text: text, clientMessageId: text))
        }
        try await phone.queue(ChatAPI.read, room, body: ChatReadMarker(seq: 2))
        await #expect(throws: HuddleError.self) {
            try await phone.queue(AuthAPI.deleteMe, body: DeleteAccountRequest(password: "a password"))
        }
        #expect(await phone.queuedWrites!.pending.count == 3)

        // The app restarts, the network is back.
        link.setCut(false)
        let restarted = HuddleClient(
            baseURL: URL(string: "http://huddle.test")!, transport: link, tokens: InMemoryTokenStore(signedIn),
            queuedWrites: QueuedWrites(file: file))
        let outcomes = await restarted.sendQueuedWrites()
        #expect(outcomes.count == 3)
        if case .refused(let write, let error) = outcomes.last {
            #expect(write.operation.hasSuffix("/read") && error.status == 404)
        } else {
            Issue.record("the read marker was not reported refused")
        }
        #expect(await seen.bodies.compactMap { try? JSONDecoder().decode(SendChatMessage.self, from: $0).text } == ["one", "two"])
        #expect(await restarted.queuedWrites!.pending.isEmpty)
    }
}

/// A server stand-in for the tests above: answers each request with `answer`.
struct Answering: HTTPTransport {
    let answer: @Sendable (HTTPRequest) async -> HTTPResponse
    init(_ answer: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) { self.answer = answer }
    func send(_ request: HTTPRequest) async throws -> HTTPResponse { await answer(request) }
}

actor Seen {
    private(set) var bodies: [Data] = []
    func add(_ request: HTTPRequest) { if let body = request.body { bodies.append(body) } }
}
