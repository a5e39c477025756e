import ChatService
import Contracts
import Foundation
import ServiceHTTP
import ServiceKitTesting
import Testing

@Suite("Chat's live socket")
struct LiveChatTests {
    @Test("A socket gets what it missed after its seq, then live messages, edits and deletes, each once", arguments: TestStore.all)
    func missedThenLive(store: TestStore) async throws {
        try await ChatHarness.with(store: store) { chat in
            let ada = try await chat.player("Ada"), bo = try await chat.player("Bo")
            let room = try await chat.globalRoom(ada).id
            for index in 1...3 { _ = try await expect(201, chat.send("before \(index)", to: room, as: bo)) }
            let socket = try await ChatSocket.connect(baseURL: chat.chat.baseURL, chatToken: ada.accessToken)
            try socket.send(ChatClientFrame.subscribe(room, afterSeq: 1))
            #expect(try await socket.waitFor { $0.type == .subscribed && $0.lastSeq == 3 })
            let live = try await expect(201, chat.send("live one", to: room, as: bo)).decode(ChatMessage.self)
            #expect(try await socket.waitFor { $0.message?.seq == 4 })
            _ = try await expect(
                200,
                chat.chat.call(ChatAPI.edit, room, live.id, body: EditChatMessage(text: "live 1"), token: bo.accessToken))
            #expect(try await socket.waitFor { $0.type == .edited && $0.message?.text == "live 1" })
            _ = try await expect(204, chat.chat.call(ChatAPI.delete, room, live.id, token: bo.accessToken))
            #expect(try await socket.waitFor { $0.type == .deleted && $0.id == live.id && $0.seq == 4 })
            #expect(socket.messages(in: room).map(\.seq) == [2, 3, 4])
            #expect(socket.messages.first?.type == .subscribed)
            await socket.close()
        }
    }

    @Test(
        "A phone that drops off and comes back resumes from its last seq: nothing missed, nothing doubled, however much it missed",
        arguments: TestStore.all)
    func resumeAfterDrop(store: TestStore) async throws {
        // What it missed is more frames than its socket may hold unsent: a catch-up counts as one.
        try await ChatHarness.with(store: store, config: ["chat.flood.burst": "100", "chat.socket.buffer": "10"]) { chat in
            let ada = try await chat.player("Ada"), bo = try await chat.player("Bo")
            let room = try await chat.globalRoom(ada).id
            let first = try await ChatSocket.connect(baseURL: chat.chat.baseURL, chatToken: ada.accessToken)
            try first.send(ChatClientFrame.subscribe(room, afterSeq: 0))
            #expect(try await first.waitFor { $0.type == .subscribed })
            let sender = Task {
                for index in 1...40 { _ = try await expect(201, chat.send("m\(index)", to: room, as: bo)) }
            }
            #expect(try await first.waitFor { $0.message?.seq ?? 0 >= 10 })
            let seen = first.messages(in: room)
            await first.close()
            try await sender.value
            let second = try await ChatSocket.connect(baseURL: chat.chat.baseURL, chatToken: ada.accessToken)
            try second.send(ChatClientFrame.subscribe(room, afterSeq: seen.last?.seq ?? 0))
            #expect(try await second.waitFor { $0.message?.seq == 40 })
            let all = seen + second.messages(in: room)
            #expect(all.map(\.seq) == Array(1...40))
            await second.close()
        }
    }

    @Test("Sending on the socket is idempotent and flood-limited, errors name the clientMessageId, and unreadable frames are refused")
    func sendOnSocket() async throws {
        try await ChatHarness.with(config: ["chat.flood.burst": "2", "chat.flood.interval.ms": "60000"]) { chat in
            let ada = try await chat.player("Ada")
            let room = try await chat.globalRoom(ada).id
            let socket = try await chat.socket(ada, subscribedTo: room)
            try socket.send(ChatClientFrame.send("hi", to: room, clientMessageId: "s1"))
            try socket.send(ChatClientFrame.send("hi", to: room, clientMessageId: "s1"))
            try socket.send(ChatClientFrame.send("second", to: room, clientMessageId: "s2"))
            try socket.send(ChatClientFrame.send("third", to: room, clientMessageId: "s3"))
            #expect(
                try await socket.waitFor {
                    $0.type == .error && $0.clientMessageId == "s3" && $0.code == "RATE_LIMITED" && $0.retryAfter != nil
                })
            #expect(try await socket.waitFor { $0.message?.seq == 2 })
            #expect(socket.messages(in: room).map(\.text) == ["hi", "second"])
            socket.send(text: "not json")
            #expect(
                try await socket.waitFor { $0.type == .error && $0.code == "MALFORMED_BODY" && $0.detail?.contains("JSON frame") == true })
            socket.send(binary: [1, 2, 3])
            #expect(try await socket.waitFor { $0.type == .error && $0.code == "MALFORMED_BODY" && $0.detail?.contains("binary") == true })
            // Each frame fits, the message they make does not (one frame over the limit closes the socket).
            socket.send(fragments: [String(repeating: " ", count: 10_000), String(repeating: " ", count: 10_000)])
            #expect(try await socket.waitFor { $0.type == .error && $0.code == "MALFORMED_BODY" && $0.detail?.contains("at most") == true })
            // A frame split over several WebSocket frames is read whole, and the socket still works.
            let subscribe = String(decoding: try HuddleJSON.encoder.encode(ChatClientFrame.subscribe(RoomID())), as: UTF8.self)
            socket.send(fragments: [String(subscribe.prefix(5)), String(subscribe.dropFirst(5).prefix(9)), String(subscribe.dropFirst(14))])
            #expect(try await socket.waitFor { $0.type == .error && $0.code == "NOT_FOUND" })
            await socket.close()
        }
    }

    @Test("A player who leaves a team stops getting its messages at once; blocked players' messages never arrive", arguments: TestStore.all)
    func membershipAndBlocksLive(store: TestStore) async throws {
        try await ChatHarness.with(store: store) { chat in
            let manager = try await chat.player("Manager"), player = try await chat.player("Player"), troll = try await chat.player("Troll")
            let team = try await chat.team("Tartu Tigers", manager: manager, players: [player])
            let global = try await chat.globalRoom(player).id
            try await chat.block(troll, by: player)
            let socket = try await ChatSocket.connect(baseURL: chat.chat.baseURL, chatToken: player.accessToken)
            for room in [team.id, global] { try socket.send(ChatClientFrame.subscribe(room)) }
            #expect(try await socket.waitFor { $0.type == .subscribed && $0.roomId == global })
            #expect(try await socket.waitFor { $0.type == .subscribed && $0.roomId == team.id })
            _ = try await expect(201, chat.send("troll says", to: global, as: troll))
            _ = try await expect(201, chat.send("team talk", to: team.id, as: manager))
            _ = try await expect(201, chat.send("hello everyone", to: global, as: manager))
            #expect(try await socket.waitFor { $0.message?.text == "hello everyone" })
            #expect(socket.messages(in: global).map(\.text) == ["hello everyone"])
            try await chat.leave(team, player)
            #expect(try await socket.waitFor { $0.type == .error && $0.roomId == team.id && $0.code == "NOT_FOUND" })
            _ = try await expect(201, chat.send("secret plans", to: team.id, as: manager))
            _ = try await expect(201, chat.send("still here", to: global, as: manager))
            #expect(try await socket.waitFor { $0.message?.text == "still here" })
            #expect(socket.messages(in: team.id).map(\.text) == ["team talk"])
            await socket.close()
        }
    }

    @Test(
        "A block made while a socket is open hides the blocked player's next message; an unblock shows the next", arguments: TestStore.all)
    func blockWhileConnected(store: TestStore) async throws {
        try await ChatHarness.with(store: store) { chat in
            let ada = try await chat.player("Ada"), bo = try await chat.player("Bo"), cy = try await chat.player("Cy")
            let room = try await chat.globalRoom(ada).id
            let socket = try await chat.socket(ada, subscribedTo: room)
            _ = try await expect(201, chat.send("hello", to: room, as: bo))
            #expect(try await socket.waitFor { $0.message?.text == "hello" })
            try await chat.block(bo, by: ada)
            _ = try await expect(201, chat.send("after the block", to: room, as: bo))
            _ = try await expect(201, chat.send("marker", to: room, as: cy))
            #expect(try await socket.waitFor { $0.message?.text == "marker" })
            try await chat.unblock(bo, by: ada)
            _ = try await expect(201, chat.send("after the unblock", to: room, as: bo))
            #expect(try await socket.waitFor { $0.message?.text == "after the unblock" })
            #expect(socket.messages(in: room).map(\.text) == ["hello", "marker", "after the unblock"])
            await socket.close()
        }
    }

    @Test("A device that stops reading is cut off once its socket's queue is full; the room's other sockets get every message")
    func stalledDevice() async throws {
        let config = ["chat.flood.burst": "10000", "chat.socket.buffer": "50", "chat.socket.drain.ms": "100"]
        try await ChatHarness.with(config: config) { chat in
            let ada = try await chat.player("Ada"), bo = try await chat.player("Bo")
            let room = try await chat.globalRoom(ada).id
            let subscribe = String(decoding: try HuddleJSON.encoder.encode(ChatClientFrame.subscribe(room)), as: UTF8.self)
            let frozen = try await StalledSocket.connect(
                baseURL: chat.chat.baseURL, path: ChatAPI.live.path(), token: ada.accessToken, frames: [subscribe])
            let healthy = try await chat.socket(bo, subscribedTo: room)

            // Long messages fill the frozen phone's connection, then its queue of 50.
            let last = try await frozen.flood { _ = try await expect(201, chat.send(StalledSocket.longMessage, to: room, as: bo)) }
            #expect(await frozen.isCutOff(within: patience), "still connected after \(last) messages")
            #expect(try await healthy.waitFor { $0.message?.seq == last })
            #expect(healthy.messages(in: room).map(\.seq) == Array(1...last))
            await healthy.close()
            await frozen.close()
        }
    }

    @Test(
        "A link to chat is watched by TCP keepalive, not a ping task: a gateway gone without closing is noticed",
        .enabled(if: KernelTCP.isReadable, "reads the kernel's connections from Linux's /proc/net/tcp"))
    func keepalive() async throws {
        try await ChatHarness.with { chat in
            let ada = try await chat.player("Ada")
            let link = try await StalledSocket.connect(
                baseURL: chat.chat.baseURL, path: ChatAPI.live.path(), token: ada.accessToken, frames: [])
            let chatPort = try #require(URL(string: chat.chat.baseURL)?.port), linkPort = try #require(link.localPort)
            // Until the upgrade is read and its answer acknowledged, the kernel runs no timer or another one.
            let timer = try await poll {
                KernelTCP.timer(local: chatPort, remote: linkPort)
            } until: {
                if case .keepalive = $0 { true } else { false }
            }
            await link.close()
            guard case .keepalive(let seconds) = try #require(timer, "no connection \(chatPort) <- \(linkPort)") else {
                Issue.record("chat's end of the link runs \(String(describing: timer)), not keepalive")
                return
            }
            #expect(seconds > 20 && seconds <= 30)
        }
    }

    @Test(
        "Two chat instances on one PostgreSQL: a message sent to one reaches a socket on the other, and a block made on one hides messages on the other"
    )
    func acrossInstances() async throws {
        guard TestStore.postgresURL != nil else { return }
        let database = try await TestStore.postgres.freshDatabaseURL()
        try await ChatHarness.with(store: .postgres, config: ["chat.db.url": database]) { chat in
            try await TestStack.with(
                [ModuleBuilder.chat], store: .postgres,
                config: ["chat.db.url": database], directory: [.auth: chat.stack.url(.auth)]
            ) { other in
                let ada = try await chat.player("Ada"), bo = try await chat.player("Bo"), cy = try await chat.player("Cy")
                let room = try await chat.globalRoom(ada).id
                let socket = try await chat.socket(ada, subscribedTo: room, baseURL: other.url(.chat))
                _ = try await expect(201, chat.send("across", to: room, as: bo))
                #expect(try await socket.waitFor { $0.message?.text == "across" })
                // The block is made on the first instance; the socket's instance hears it with its commit.
                try await chat.block(bo, by: ada)
                _ = try await expect(201, chat.send("marker 1", to: room, as: cy))
                #expect(try await socket.waitFor { $0.message?.text == "marker 1" })
                _ = try await expect(201, chat.send("after the block", to: room, as: bo))
                _ = try await expect(201, chat.send("marker 2", to: room, as: cy))
                #expect(try await socket.waitFor { $0.message?.text == "marker 2" })
                #expect(socket.messages(in: room).map(\.text) == ["across", "marker 1", "marker 2"])
                await socket.close()
            }
        }
    }
}
