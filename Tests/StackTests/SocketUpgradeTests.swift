import Contracts
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import ServiceKitTesting
import Testing

/// Opening a live socket through the gateway as devices do, right and wrong: a refused upgrade says
/// why (the status and problem the same path answers over HTTP), a device that cannot set headers
/// passes its token as a subprotocol, and a frame longer than a message may be gets the socket's
/// documented error frame.
@Suite("Live socket upgrades through the gateway", StackTests.embeddedOnly)
struct SocketUpgradeTests {
    /// Asks `path` for a WebSocket upgrade with `extra` header lines; answers the status and problem.
    static func upgrade(_ gateway: TestClient, _ path: String, _ extra: String = "") async throws -> (Int?, Problem?, String) {
        let connection = try await RawConnection.open(baseURL: gateway.baseURL)
        defer { Task { await connection.close() } }
        try await connection.send(
            "GET \(path) HTTP/1.1\r\nHost: huddle\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\(extra)\r\n")
        #expect(try await eventually { connection.isClosed })
        return (connection.status, try? HuddleJSON.decoder.decode(Problem.self, from: connection.body), connection.answer)
    }

    @Test("a refused upgrade is answered with the status and problem of the reason, before anything is upgraded")
    func refusals() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let player = try await gateway.register(name: "Socket Tester")
            let bearer = "Authorization: Bearer \(player.accessToken)\r\n"

            let (anonymous, problem, answer) = try await Self.upgrade(gateway, ChatAPI.live.path())
            #expect(anonymous == 401)
            #expect(problem?.code == ProblemCode.unauthorized.code)
            #expect(answer.contains("Content-Type: application/problem+json"))
            #expect(answer.contains(#"WWW-Authenticate: Bearer realm="huddle""#))

            let (forged, forgedProblem, forgedAnswer) = try await Self.upgrade(
                gateway, ChatAPI.live.path(), "Authorization: Bearer nope\r\n")
            #expect(forged == 401 && forgedProblem?.code == ProblemCode.unauthorized.code)
            #expect(forgedAnswer.contains(#"error="invalid_token""#))

            let (notPlayer, notPlayerProblem, _) = try await Self.upgrade(gateway, GamesAPI.liveRound.path(RoundID()), bearer)
            #expect(notPlayer == 404 && notPlayerProblem?.code == ProblemCode.notFound.code)

            let (unknownMatch, _, _) = try await Self.upgrade(gateway, GamesAPI.liveMatch.path(MatchID()))
            #expect(unknownMatch == 404)

            let (badVersion, badVersionProblem, _) = try await Self.upgrade(
                gateway, GamesAPI.liveMatch.path(MatchID()) + "?afterVersion=-1")
            #expect(badVersion == 422 && badVersionProblem?.errors?.map(\.field) == ["afterVersion"])

            let (noRoute, noRouteProblem, _) = try await Self.upgrade(gateway, "/v1/nothing/live", bearer)
            #expect(noRoute == 404 && noRouteProblem?.code == ProblemCode.noSuchRoute.code)
        }
    }

    @Test("an instance holding all the sockets it takes answers the next upgrade 503 with Retry-After; one freed, it takes one again")
    func socketCap() async throws {
        try await StackTests.withStack(store: .sqlite, config: ["chat.sockets.max": "1"]) { gateway in
            let player = try await gateway.register(name: "Capped Phone")
            let global = try #require(
                try await gateway.value(ChatAPI.rooms, token: player.accessToken).items.first { $0.kind == .global })
            func connect() async throws -> LiveDevice<ChatServerFrame> {
                let device = try await LiveDevice<ChatServerFrame>.connect(
                    baseURL: gateway.baseURL, path: ChatAPI.live.path(), token: player.accessToken)
                try device.send(ChatClientFrame.subscribe(global.id))
                return device
            }
            let first = try await connect()
            #expect(try await first.waitFor { $0.type == .subscribed })

            let bearer = "Authorization: Bearer \(player.accessToken)\r\n"
            let (status, problem, answer) = try await Self.upgrade(gateway, ChatAPI.live.path(), bearer)
            #expect(status == 503 && problem?.code == ProblemCode.dependencyUnavailable.code, "\(answer)")
            #expect(answer.contains("Retry-After: 5"))
            // The first socket closed, the instance takes another.
            await first.close()
            let taken = NIOLockedValueBox<LiveDevice<ChatServerFrame>?>(nil)
            // Until the instance has counted the first one out, the next is still refused.
            #expect(
                try await eventually {
                    guard let device = try? await connect() else { return false }
                    taken.withLockedValue { $0 = device }
                    return true
                })
            let second = try #require(taken.withLockedValue { $0 })
            #expect(try await second.waitFor { $0.type == .subscribed })
            await second.close()
        }
    }

    @Test("a device that cannot set headers passes its token as a subprotocol; a frame over 16 KB gets an error frame")
    func subprotocolTokenAndLongFrames() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let player = try await gateway.register(name: "Browser Player")
            let rooms = try await gateway.call(ChatAPI.rooms, token: player.accessToken).decode(Page<ChatRoom>.self)
            let global = try #require(rooms.items.first { $0.kind == .global })
            let offer: HTTPFields = [.secWebSocketProtocol: "huddle, huddle.bearer.\(player.accessToken)"]
            let phone = try await LiveDevice<ChatServerFrame>.connect(
                baseURL: gateway.baseURL, path: ChatAPI.live.path(), token: nil, headers: offer)
            try phone.send(ChatClientFrame.subscribe(global.id))
            #expect(try await phone.waitFor { $0.type == .subscribed && $0.roomId == global.id })

            phone.send(text: String(repeating: "x", count: 20_000))
            #expect(try await phone.waitFor { $0.type == .error && $0.code == ProblemCode.malformedBody.code })
            // The socket goes on.
            try phone.send(ChatClientFrame.send("still here", to: global.id, clientMessageId: "after-long-frame"))
            #expect(try await phone.waitFor { $0.type == .message && $0.message?.text == "still here" })
            await phone.close()

            let (status, _, _) = try await Self.upgrade(
                gateway, ChatAPI.live.path(), "Sec-WebSocket-Protocol: huddle, huddle.bearer.nope\r\n")
            #expect(status == 401)
        }
    }
}

/// The gateway's pings to the devices on its sockets.
@Suite("Live sockets through the gateway are pinged", StackTests.embeddedOnly)
struct SocketPingTests {
    @Test("a device that answers the gateway's pings keeps its socket; one that does not is closed with 1001 by the next ping")
    func unansweredPings() async throws {
        // A second between pings: an answer may take that long on a machine running many test stacks at once.
        try await StackTests.withStack(store: .sqlite, config: ["gateway.socket.ping.ms": "1000"]) { gateway in
            let player = try await gateway.register(name: "Pinged Player")
            let rooms = try await gateway.call(ChatAPI.rooms, token: player.accessToken).decode(Page<ChatRoom>.self)
            let global = try #require(rooms.items.first { $0.kind == .global })
            // A WebSocket client answers pings by itself; a bare connection, as a phone gone silent, does not.
            let answering = try await LiveDevice<ChatServerFrame>.connect(
                baseURL: gateway.baseURL, path: ChatAPI.live.path(), token: player.accessToken)
            let silent = try await RawConnection.open(baseURL: gateway.baseURL)
            defer { Task { await silent.close() } }
            try await silent.send(
                "GET \(ChatAPI.live.path()) HTTP/1.1\r\nHost: huddle\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                    + "Authorization: Bearer \(player.accessToken)\r\n\r\n")
            #expect(try await eventually(within: .seconds(10)) { silent.isClosed })
            let frames = Self.frames(silent.bytesAfterHead)
            #expect(silent.status == 101)
            #expect(frames.contains { $0.opcode == 0x9 }, "pinged: \(frames)")
            let close = try #require(frames.last { $0.opcode == 0x8 }, "\(frames)")
            #expect(close.payload.prefix(2) == [0x03, 0xE9], "1001: \(close.payload)")

            // The device that answered, connected before the silent one, has had as many pings and is still served.
            try answering.send(ChatClientFrame.subscribe(global.id))
            #expect(try await answering.waitFor { $0.type == .subscribed && $0.roomId == global.id })
            await answering.close()
        }
    }

    /// The frames in what a server sent (unmasked, each with a payload under 126 bytes here).
    static func frames(_ bytes: [UInt8]) -> [(opcode: UInt8, payload: [UInt8])] {
        var frames: [(opcode: UInt8, payload: [UInt8])] = [], index = 0
        while index + 2 <= bytes.count {
            let length = Int(bytes[index + 1] & 0x7F)
            guard length < 126, index + 2 + length <= bytes.count else { break }
            frames.append((bytes[index] & 0x0F, Array(bytes[(index + 2)..<(index + 2 + length)])))
            index += 2 + length
        }
        return frames
    }
}
