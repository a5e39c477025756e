import ChatService
import Contracts
import Foundation
import NIOConcurrencyHelpers
import ServiceHTTP
import ServiceKitTesting
import Testing

@Suite("Chat rooms and messages")
struct MessagesTests {
    @Test("100 senders at once get seqs 1…100 with no gap and no repeat", arguments: TestStore.all)
    func gapFreeSeq(store: TestStore) async throws {
        try await ChatHarness.with(store: store) { chat in
            let players = try await (0..<10).asyncMap { try await chat.player("Sender \($0)") }
            let room = try await chat.globalRoom(players[0]).id
            try await withThrowingTaskGroup(of: Void.self) { group in
                // The sends queue for the test client's eight connections and the room's lock, and the
                // whole suite shares one process's two cooperative threads: there the test has taken up
                // to 180 s (3.8 s alone), and its last send once waited over 30 s.
                for index in 0..<100 {
                    group.addTask {
                        _ = try await expect(201, chat.send("hello \(index)", to: room, as: players[index % 10], timeout: .seconds(300)))
                    }
                }
                try await group.waitForAll()
            }
            var seen: [ChatMessage] = []
            var after = 0
            while true {
                let page = try await chat.history(room, as: players[0], query: ChatAPI.messagesAfter(after) + Query.limit(30))
                guard let last = page.last else { break }
                seen += page
                after = last.seq
            }
            #expect(seen.map(\.seq) == Array(1...100))
            #expect(Set(seen.map(\.text)).count == 100)
            #expect(try await chat.globalRoom(players[0]).lastSeq == 100)
        }
    }

    @Test("A retry of a clientMessageId answers the first message, even ten sent at once, and takes no seq", arguments: TestStore.all)
    func idempotentSend(store: TestStore) async throws {
        try await ChatHarness.with(store: store) { chat in
            let ada = try await chat.player("Ada")
            let room = try await chat.globalRoom(ada).id
            let first = try await expect(201, chat.send("  hi there  ", to: room, as: ada, id: "phone-1")).decode(ChatMessage.self)
            #expect(first.text == "hi there" && first.seq == 1 && first.senderName == "Ada" && first.clientMessageId == "phone-1")
            let again = try await expect(200, chat.send("hi there", to: room, as: ada, id: "phone-1")).decode(ChatMessage.self)
            #expect(again == first)
            let statuses = NIOLockedValueBox<[Int]>([])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        let response = try await chat.send("once", to: room, as: ada, id: "phone-2")
                        statuses.withLockedValue { $0.append(response.status) }
                    }
                }
                try await group.waitForAll()
            }
            #expect(statuses.withLockedValue { $0 }.sorted() == [200, 200, 200, 200, 200, 200, 200, 200, 200, 201])
            #expect(try await chat.history(room, as: ada).map(\.seq) == [2, 1])
        }
    }

    @Test("Text is 1–2,000 characters after trimming, clientMessageId is a token, and history pages both ways")
    func validationAndPaging() async throws {
        try await ChatHarness.with(config: ["chat.flood.burst": "100"]) { chat in
            let ada = try await chat.player("Ada")
            let room = try await chat.globalRoom(ada).id
            for bad in ["", "   \n ", String(repeating: "a", count: 2001), "bell\u{7}"] {
                #expect(try await chat.send(bad, to: room, as: ada).problem?.errors?.map(\.field) == ["text"])
            }
            #expect(try await chat.send("ok", to: room, as: ada, id: "has space").status == 422)
            // A field given twice is checked as it is decoded, its first: a valid second cannot carry
            // the first past the check (the check's JSON tree and the decoder read a body alike).
            let twice = Data(#"{"text": "ok", "clientMessageId": "has space", "clientMessageId": "fine"}"#.utf8)
            let repeated = try await chat.chat.call(
                ChatAPI.send, room, rawBody: twice, token: ada.accessToken, headers: ["Content-Type": "application/json"])
            #expect(repeated.status == 422 && repeated.problem?.errors?.map(\.field) == ["clientMessageId"], "\(repeated.text)")
            #expect(try await chat.send(String(repeating: "b", count: 2000), to: room, as: ada).status == 201)
            #expect(try await chat.send("line one\nline two", to: room, as: ada).status == 201)
            for index in 3...25 { _ = try await expect(201, chat.send("message \(index)", to: room, as: ada)) }
            #expect(try await chat.history(room, as: ada).map(\.seq) == Array((6...25).reversed()))
            #expect(try await chat.history(room, as: ada, query: ChatAPI.messagesBefore(6) + Query.limit(3)).map(\.seq) == [5, 4, 3])
            #expect(try await chat.history(room, as: ada, query: ChatAPI.messagesAfter(22)).map(\.seq) == [23, 24, 25])
            #expect(
                try await chat.chat.call(
                    ChatAPI.messages, room, query: ChatAPI.messagesAfter(1) + ChatAPI.messagesBefore(5), token: ada.accessToken
                ).status == 422)
            for bad in ["before=-1", "after=2147483648", "limit=101"] {
                #expect(
                    try await chat.chat.call(ChatAPI.messages, room, rawQuery: "\(bad)", token: ada.accessToken).status == 422, "\(bad)")
            }
            #expect(
                try await chat.chat.call(ChatAPI.read, room, body: ChatReadMarker(seq: 2_147_483_648), token: ada.accessToken).status == 422
            )
            #expect(try await chat.chat.call(ChatAPI.messages, RoomID(), token: ada.accessToken).status == 404)
        }
    }

    @Test("Edits and deletes are the sender's; history shows the edit time and a deleted placeholder", arguments: TestStore.all)
    func editAndDelete(store: TestStore) async throws {
        try await ChatHarness.with(store: store) { chat in
            let ada = try await chat.player("Ada"), bo = try await chat.player("Bo")
            let room = try await chat.globalRoom(ada).id
            let message = try await expect(201, chat.send("tpyo", to: room, as: ada)).decode(ChatMessage.self)
            let edit = EditChatMessage(text: "typo")
            #expect(try await chat.chat.call(ChatAPI.edit, room, message.id, body: edit, token: bo.accessToken).status == 403)
            let edited = try await chat.chat.value(ChatAPI.edit, room, message.id, body: edit, token: ada.accessToken)
            #expect(edited.text == "typo" && edited.editedAt != nil && edited.seq == message.seq)
            #expect(try await chat.chat.call(ChatAPI.delete, room, message.id, token: bo.accessToken).status == 403)
            _ = try await expect(204, chat.chat.call(ChatAPI.delete, room, message.id, token: ada.accessToken))
            let shown = try #require(try await chat.history(room, as: bo).first)
            #expect(shown.deleted == true && shown.text.isEmpty && shown.seq == message.seq)
            #expect(try await chat.chat.call(ChatAPI.delete, room, message.id, token: ada.accessToken).status == 404)
        }
    }

    @Test("A message deleted and edited from several devices at once is deleted once and keeps no text", arguments: TestStore.all)
    func deleteAndEditAtOnce(store: TestStore) async throws {
        try await ChatHarness.with(store: store) { chat in
            let ada = try await chat.player("Ada"), bo = try await chat.player("Bo")
            let room = try await chat.globalRoom(ada).id
            let message = try await expect(201, chat.send("soon gone", to: room, as: ada)).decode(ChatMessage.self)
            let answers = try await (0..<16).concurrentMap { index -> (delete: Bool, status: Int) in
                if index.isMultiple(of: 2) {
                    return (true, try await chat.chat.call(ChatAPI.delete, room, message.id, token: ada.accessToken).status)
                }
                let edit = EditChatMessage(text: "edit \(index)")
                return (false, try await chat.chat.call(ChatAPI.edit, room, message.id, body: edit, token: ada.accessToken).status)
            }
            #expect(answers.filter(\.delete).map(\.status).sorted() == [204] + Array(repeating: 404, count: 7))
            #expect(answers.filter { !$0.delete }.allSatisfy { [200, 404].contains($0.status) })
            let shown = try #require(try await chat.history(room, as: bo).first)
            #expect(shown.id == message.id && shown.deleted == true && shown.text.isEmpty)
        }
    }

    @Test("Unread counts leave out my own messages, markers never move back, and every device agrees", arguments: TestStore.all)
    func unreadCounts(store: TestStore) async throws {
        try await ChatHarness.with(store: store) { chat in
            let ada = try await chat.player("Ada"), bo = try await chat.player("Bo")
            let room = try await chat.globalRoom(ada).id
            for index in 1...5 { _ = try await expect(201, chat.send("from bo \(index)", to: room, as: bo)) }
            _ = try await expect(201, chat.send("from ada", to: room, as: ada))
            #expect(try await chat.globalRoom(ada).unreadCount == 5)
            #expect(try await chat.globalRoom(bo).unreadCount == 1)
            #expect(
                try await expect(200, chat.chat.call(ChatAPI.read, room, body: ChatReadMarker(seq: 3), token: ada.accessToken)).decode(
                    ChatRoom.self
                )
                .unreadCount == 2)
            // Another device of Ada's, behind, cannot move the marker back.
            let phone = try await chat.stack.client(.auth).call(
                AuthAPI.login, body: LoginRequest(email: ada.user.email, password: "correct horse battery")
            ).decode(Session.self)
            _ = try await expect(200, chat.chat.call(ChatAPI.read, room, body: ChatReadMarker(seq: 1), token: phone.accessToken))
            #expect(try await chat.globalRoom(phone).readSeq == 3)
            #expect(try await chat.globalRoom(ada).unreadCount == 2)
            _ = try await expect(200, chat.chat.call(ChatAPI.read, room, body: ChatReadMarker(seq: 999), token: phone.accessToken))
            #expect(try await chat.globalRoom(ada).readSeq == 6)
            #expect(try await chat.globalRoom(ada).unreadCount == 0)
        }
    }

    @Test("Over the flood limit a send is 429 with Retry-After, per room, and a retry of a sent message still answers")
    func floodControl() async throws {
        try await ChatHarness.with(config: ["chat.flood.burst": "3", "chat.flood.interval.ms": "60000"]) { chat in
            let ada = try await chat.player("Ada")
            let room = try await chat.globalRoom(ada).id
            for index in 1...3 { _ = try await expect(201, chat.send("quick \(index)", to: room, as: ada, id: "q\(index)")) }
            let refused = try await chat.send("one too many", to: room, as: ada)
            #expect(refused.status == 429 && refused.problem?.code == "RATE_LIMITED")
            #expect((30...60).contains(Int(refused.header("Retry-After") ?? "") ?? 0))
            #expect(refused.header("RateLimit-Policy") == #""chat-room";q=3;w=180"#)
            #expect(refused.header("RateLimit")?.hasPrefix(#""chat-room";r=0;t="#) == true)
            #expect(try await chat.send("quick 1", to: room, as: ada, id: "q1").status == 200)
            let bo = try await chat.player("Bo")
            let direct = try await expect(
                200, chat.chat.call(ChatAPI.direct, body: DirectRoomRequest(userId: bo.user.id), token: ada.accessToken)
            )
            .decode(ChatRoom.self)
            #expect(try await chat.send("another room", to: direct.id, as: ada).status == 201)
        }
    }

    @Test(
        "Flood control holds across instances: sends alternating between two chat instances on one PostgreSQL share one bucket",
        .enabled(if: TestStore.postgresURL != nil))
    func floodAcrossInstances() async throws {
        let database = try await TestStore.postgres.freshDatabaseURL()
        let config = ["chat.db.url": database, "chat.flood.burst": "4", "chat.flood.interval.ms": "60000"]
        try await ChatHarness.with(store: .postgres, config: config) { chat in
            try await TestStack.with(
                [ModuleBuilder.chat], store: .postgres, config: config,
                directory: [.auth: chat.stack.url(.auth)]
            ) { other in
                let ada = try await chat.player("Ada")
                let room = try await chat.globalRoom(ada).id
                let instances = [chat.chat, other.client(.chat)]
                func send(_ index: Int) async throws -> TestClient.Response {
                    try await instances[index % 2].call(
                        ChatAPI.send, room, body: SendChatMessage(text: "m\(index)", clientMessageId: "m\(index)"), token: ada.accessToken)
                }
                for index in 0..<4 { _ = try await expect(201, send(index)) }
                let refused = try await send(4)
                #expect(refused.status == 429 && refused.header("RateLimit-Policy") == #""chat-room";q=4;w=240"#)
                #expect(try await send(5).status == 429)
            }
        }
    }

    @Test(
        "a deleted account's messages become tombstones under a former player's name, seqs unchanged; it leaves its rooms, and its direct room stays for the other to read",
        arguments: TestStore.all)
    func deletedAccount(store: TestStore) async throws {
        try await ChatHarness.with(store: store) { chat in
            let ada = try await chat.player("Ada Leaving"), bo = try await chat.player("Bo Staying")
            let global = try await chat.globalRoom(bo)
            let direct = try expect(
                200, try await chat.chat.call(ChatAPI.direct, body: DirectRoomRequest(userId: bo.user.id), token: ada.accessToken)
            ).decode(ChatRoom.self)
            for (text, room, sender) in [
                ("hi all", global.id, ada), ("hello", global.id, bo), ("bye all", global.id, ada), ("psst", direct.id, ada),
            ] {
                _ = try expect(201, try await chat.send(text, to: room, as: sender))
            }
            _ = try expect(
                204,
                try await chat.stack.client(.auth).call(
                    AuthAPI.deleteMe, body: DeleteAccountRequest(password: "correct horse battery"), token: ada.accessToken))

            let history = try await poll {
                try await chat.history(global.id, as: bo)
            } until: {
                $0.filter { $0.deleted == true }.count == 2
            }
            let ours = history.filter { $0.senderId == ada.user.id || $0.senderId == bo.user.id }.sorted { $0.seq < $1.seq }
            #expect(ours.map(\.text) == ["", "hello", ""] && ours.map(\.deleted) == [true, nil, true])
            #expect(ours.filter { $0.senderId == ada.user.id }.allSatisfy { $0.senderName == "Former player" })
            #expect(Set(ours.map(\.seq)).count == 3 && ours.map(\.seq) == ours.map(\.seq).sorted())
            // Bo keeps the conversation, Ada's side as tombstones under the same name, and cannot write into it.
            let kept = try expect(200, try await chat.chat.call(ChatAPI.messages, direct.id, token: bo.accessToken))
                .decode(Page<ChatMessage>.self).items
            #expect(kept.map(\.deleted) == [true] && kept.map(\.senderName) == ["Former player"] && kept.map(\.text) == [""])
            #expect(try await chat.rooms(bo).first { $0.id == direct.id }?.name == "Former player")
            #expect(try await chat.send("still there?", to: direct.id, as: bo).status == 403)
        }
    }
}
