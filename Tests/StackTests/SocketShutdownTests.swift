import Contracts
import Foundation
import HuddleKit
import HuddleModules
import Logging
import NIOWebSocket
import ServiceHTTP
import ServiceKitTesting
import Testing

/// What an instance that is shutting down (SIGTERM, a rollout) does to the live sockets it holds.
@Suite("Sockets move off an instance that shuts down")
struct SocketShutdownTests {
    @Test(
        "a chat instance shutting down closes its sockets with 1001, the gateway passes 1001 on, HuddleKit resumes on the other instance with nothing missed, and a gateway shutting down sends 1001 too",
        StackTests.embeddedOnly, .enabled(if: TestStore.postgresURL != nil, "two chat instances share one PostgreSQL"))
    func goingAway() async throws {
        let builders = HuddleModules.builders
        let chatConfig = ["chat.db.url": try await TestStore.postgres.freshDatabaseURL(), "chat.flood.burst": "100"]
        try await TestStack.with(
            [try #require(builders[.auth]), try #require(builders[.gateway])], store: .postgres, config: ["gateway.modules": "auth,chat"]
        ) { front in
            let instances = try await [0, 1].asyncMap { _ in
                try await TestStack.start(
                    [try #require(builders[.chat])], store: .postgres, config: chatConfig, directory: [.auth: front.url(.auth)])
            }
            defer { Task { for instance in instances { await instance.stop() } } }
            let (leaving, staying) = (instances[0], instances[1])
            front.runner.directory.set(.chat, instances: [leaving.url(.chat)])
            let gateway = TestClient(baseURL: front.url(.gateway))
            let ada = try await gateway.register(name: "Ada Moving"), bo = try await gateway.register(name: "Bo Talking")
            let rooms = try await gateway.value(ChatAPI.rooms, token: ada.accessToken)
            let room = try #require(rooms.items.first { $0.kind == .global }).id

            // A device straight on the leaving instance, one through the gateway, and an app following the room.
            let direct = try await ChatSocket.connect(baseURL: leaving.url(.chat), chatToken: ada.accessToken)
            let relayed = try await ChatSocket.connect(baseURL: gateway.baseURL, chatToken: ada.accessToken)
            let phone = Frames()
            let app = HuddleClient(
                baseURL: try #require(URL(string: gateway.baseURL)), liveTransport: WebSocketLiveTransport(), tokens: InMemoryTokenStore())
            try await app.signIn(email: ada.user.email, password: "correct horse battery")
            let following = Task { await phone.follow(app.liveChat([room: nil])) }
            defer { following.cancel() }
            try await Task.sleep(for: .milliseconds(500))
            func send(_ index: Int) async throws -> ChatMessage {
                try await gateway.value(
                    ChatAPI.send, room, body: SendChatMessage(text: "moving \(index)", clientMessageId: "moving-\(index)"),
                    token: bo.accessToken)
            }
            var sent: [ChatMessage] = []
            for index in 1...5 { sent.append(try await send(index)) }
            #expect(try await eventually { phone.messages.count == 5 }, "\(phone)")

            front.runner.directory.set(.chat, instances: [leaving.url(.chat), staying.url(.chat)])
            await leaving.stop()
            #expect(
                try await eventually { direct.closedWith == .goingAway },
                "straight on the instance: \(String(describing: direct.closedWith))")
            #expect(
                try await eventually { relayed.closedWith == .goingAway }, "through the gateway: \(String(describing: relayed.closedWith))")

            for index in 6...10 { sent.append(try await send(index)) }
            #expect(try await eventually(within: .seconds(30)) { phone.messages.count >= 10 }, "\(phone)")
            #expect(phone.messages.map(\.seq) == sent.map(\.seq), "\(phone)")

            // The gateway shutting down tells its devices the same.
            let lastDevice = try await ChatSocket.connect(baseURL: gateway.baseURL, chatToken: ada.accessToken)
            await front.stop()
            #expect(try await eventually { lastDevice.closedWith == .goingAway }, "\(String(describing: lastDevice.closedWith))")
        }
    }

    /// The servers that can upgrade to a live socket learn whether a connection is HTTP or a socket
    /// only from its first request; without `LiveServerConnections` one silent connection held
    /// such an instance's stop through its whole grace and past it.
    @Test(
        "a stopping instance with live sockets closes a connection that has sent nothing at once, and one whose request never ends once its grace is over, so neither holds the stop",
        arguments: [ServiceModule.chat, .games, .gateway])
    func connectionsWithoutARequest(module: ServiceModule) async throws {
        let recorder = LogRecorder()
        let grace = Duration.seconds(5)
        let builders = HuddleModules.builders
        let stack = try await TestStack.start(
            [.auth, .catalog, module].map { try #require(builders[$0]) },
            config: ["shutdown.grace.ms": String(grace.components.seconds * 1000)],
            logger: recorder.logger(label: "stopping", level: .warning))
        let silent = try await RawConnection.open(baseURL: stack.url(module))
        let unfinished = try await RawConnection.open(baseURL: stack.url(module))
        try await unfinished.send("GET /health HTTP/1.1\r\nHost: huddle\r\n")
        // Answered on a connection opened after them, so the server has taken both.
        let probe = try await RawConnection.open(baseURL: stack.url(module))
        try await probe.send("GET /health HTTP/1.1\r\nHost: huddle\r\n\r\n")
        #expect(try await eventually { probe.status == 200 })

        let stopping = Task { await stack.stop() }
        #expect(try await eventually(within: grace - .seconds(1)) { silent.isClosed }, "the silent connection is closed as the stop begins")
        await stopping.value
        // The server has closed it by now; this end hears so a moment later on a loaded machine.
        #expect(try await eventually(within: .seconds(5)) { unfinished.isClosed }, "the unfinished request's connection is closed")
        #expect(!recorder.logged.contains { $0.message.contains("had not ended") }, "\(recorder.logged)")
        for connection in [silent, unfinished, probe] { await connection.close() }
    }
}
