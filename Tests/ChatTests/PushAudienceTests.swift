import ChatService
import Contracts
import Foundation
import HuddleEffects
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import Testing

/// Whom chat names for a message's push (`ChatAPI.Internal.messagePush`): the members with no socket
/// on the room who neither muted it nor blocked the sender, and anyone the message names.
@Suite("Whom a message is pushed to")
struct PushAudienceTests {
    @Test(
        "A team room's message is for the members not in it now: not the sender, not one reading it, not one who muted it unless named, never one who blocked the sender",
        arguments: TestStore.all)
    func teamRoom(store: TestStore) async throws {
        try await ChatHarness.with(store: store) { chat in
            let mia = try await chat.player("Mia Manager"), ana = try await chat.player("Ana Reading")
            let ben = try await chat.player("Ben Muted"), cid = try await chat.player("Cid Blocking"),
                dee = try await chat.player("Dee Away")
            let room = try await chat.team("Push Pumas", manager: mia, players: [ana, ben, cid, dee])
            let socket = try await chat.socket(ana, subscribedTo: room.id)
            let muted = try await expect(200, chat.chat.call(ChatAPI.mute, room.id, body: MuteRoomRequest(), token: ben.accessToken))
                .decode(ChatRoom.self)
            #expect(muted.muted && muted.mutedUntil == nil)
            try await chat.block(mia, by: cid)

            #expect(try await Self.recipients(chat, "Training moved to 19:00", in: room.id, by: mia) == [dee.user.id: false])
            let named = try await Self.recipients(chat, "@Ben Muted, are you in? @Dee Away too", in: room.id, by: mia)
            #expect(named == [dee.user.id: true, ben.user.id: true])
            // A name that runs on into a longer word names no one.
            #expect(try await Self.recipients(chat, "@Ben Mutedly", in: room.id, by: mia) == [dee.user.id: false])

            await socket.close()
            let anyone = try await Self.send(chat, "anyone?", in: room.id, by: mia)
            #expect(try await eventually { try await Self.recipients(chat, of: anyone)[ana.user.id] == false })
            // A mute with an end: over in the past is refused; unmuted, Ben hears the room again.
            let past = try await chat.chat.call(
                ChatAPI.mute, room.id, body: MuteRoomRequest(until: Date().addingTimeInterval(-60)), token: ben.accessToken)
            #expect(past.status == 422)
            let until = Date().addingTimeInterval(3600).wholeSeconds
            let timed = try await expect(
                200, chat.chat.call(ChatAPI.mute, room.id, body: MuteRoomRequest(until: until), token: ben.accessToken)
            )
            .decode(ChatRoom.self)
            #expect(timed.muted && timed.mutedUntil == until)
            let unmuted = try await expect(200, chat.chat.call(ChatAPI.unmute, room.id, token: ben.accessToken)).decode(ChatRoom.self)
            #expect(!unmuted.muted)
            #expect(try await Self.recipients(chat, "welcome back", in: room.id, by: mia)[ben.user.id] == false)
            // Someone not in the room can mute nothing there.
            let stranger = try await chat.player("Stranger")
            #expect(try await chat.chat.call(ChatAPI.mute, room.id, body: MuteRoomRequest(), token: stranger.accessToken).status == 404)
        }
    }

    @Test("A mute with an end stops counting when it ends: the player is pushed every message again", arguments: TestStore.all)
    func muteEnds(store: TestStore) async throws {
        let clock = SettableClock(Date().wholeSeconds)
        try await ChatHarness.with(store: store, effects: Effects(now: { clock.now })) { chat in
            let mia = try await chat.player("Mia Timed"), ben = try await chat.player("Ben Timed")
            let room = try await chat.team("Timed Pumas", manager: mia, players: [ben])
            let minute = MuteRoomRequest(until: clock.now.addingTimeInterval(60))
            _ = try await expect(200, chat.chat.call(ChatAPI.mute, room.id, body: minute, token: ben.accessToken))
            #expect(try await Self.recipients(chat, "still muted", in: room.id, by: mia).isEmpty)
            #expect(try await Self.recipients(chat, "@Ben Timed you too", in: room.id, by: mia) == [ben.user.id: true])
            clock.advance(by: 61)
            #expect(try await Self.recipients(chat, "the mute is over", in: room.id, by: mia) == [ben.user.id: false])
        }
    }

    @Test("The global room pushes only to the players a message names", arguments: TestStore.all)
    func globalRoom(store: TestStore) async throws {
        try await ChatHarness.with(store: store) { chat in
            let mia = try await chat.player("Mia Global"), dee = try await chat.player("Dee Named")
            let global = try await chat.globalRoom(mia)
            #expect(try await Self.recipients(chat, "hello everyone", in: global.id, by: mia).isEmpty)
            #expect(try await Self.recipients(chat, "@Dee Named look at this!", in: global.id, by: mia) == [dee.user.id: true])
        }
    }

    @Test(
        "Several messages are asked about at once, answered as each alone, without those deleted or unknown; more than fifty are refused",
        arguments: TestStore.all)
    func severalAtOnce(store: TestStore) async throws {
        try await ChatHarness.with(store: store) { chat in
            let mia = try await chat.player("Mia Several"), ana = try await chat.player("Ana Away"), ben = try await chat.player("Ben Away")
            let pumas = try await chat.team("Several Pumas", manager: mia, players: [ana])
            let lions = try await chat.team("Several Lions", manager: mia, players: [ana, ben])
            let first = try await Self.send(chat, "Pumas train at 19", in: pumas.id, by: mia)
            let gone = try await Self.send(chat, "wrong room", in: pumas.id, by: mia)
            let second = try await Self.send(chat, "@Ben Away, Lions at 20", in: lions.id, by: mia)
            _ = try await expect(204, chat.chat.call(ChatAPI.delete, pumas.id, gone.id, token: mia.accessToken))

            let asked = MessagePushesRequest(ids: [second.id, gone.id, ChatMessageID(), first.id])
            let answer = try await expect(200, chat.chat.call(ChatAPI.Internal.messagePushes, body: asked)).decode(
                MessagePushesResponse.self)
            #expect(answer.items.map(\.messageId) == [second.id, first.id])
            for push in answer.items {
                let alone = try await expect(200, chat.chat.call(ChatAPI.Internal.messagePush, push.messageId)).decode(ChatMessagePush.self)
                // Whom, not in which order: order means nothing to notify, and chat does not sort the ids.
                #expect(Self.byID(push) == Self.byID(alone))
            }
            #expect(
                Dictionary(uniqueKeysWithValues: answer.items[0].recipients.map { ($0.userId, $0.mentioned) })
                    == [ana.user.id: false, ben.user.id: true])

            let tooMany = MessagePushesRequest(ids: (0...MessagePushesRequest.maxIDs).map { _ in first.id })
            let refused = try await chat.chat.call(ChatAPI.Internal.messagePushes, body: tooMany)
            #expect(refused.status == 422)
        }
    }

    @Test("A socket on either of two chat instances keeps its player from being pushed")
    func acrossInstances() async throws {
        guard TestStore.postgresURL != nil else { return }
        let database = try await TestStore.postgres.freshDatabaseURL()
        try await ChatHarness.with(store: .postgres, config: ["chat.db.url": database]) { chat in
            try await TestStack.with(
                [ModuleBuilder.chat], store: .postgres, config: ["chat.db.url": database], directory: [.auth: chat.stack.url(.auth)]
            ) { other in
                let mia = try await chat.player("Mia Across"), ana = try await chat.player("Ana Elsewhere")
                let room = try await chat.team("Two Instances", manager: mia, players: [ana])
                let socket = try await chat.socket(ana, subscribedTo: room.id, baseURL: other.url(.chat))
                #expect(try await Self.recipients(chat, "are you there?", in: room.id, by: mia).isEmpty)
                await socket.close()
                let gone = try await Self.send(chat, "gone?", in: room.id, by: mia)
                #expect(try await eventually { try await Self.recipients(chat, of: gone) == [ana.user.id: false] })
            }
        }
    }

    /// The push with its recipients in the order of their ids.
    static func byID(_ push: ChatMessagePush) -> ChatMessagePush {
        var sorted = push
        sorted.recipients.sort { $0.userId.description < $1.userId.description }
        return sorted
    }

    /// Sends `text` and answers whom chat would push it to, and whether each is named.
    static func recipients(_ chat: ChatHarness, _ text: String, in room: RoomID, by sender: Session) async throws -> [UserID: Bool] {
        let sent = try await send(chat, text, in: room, by: sender)
        #expect(sent.text == text && sent.senderId == sender.user.id)
        return try await recipients(chat, of: sent)
    }

    static func send(_ chat: ChatHarness, _ text: String, in room: RoomID, by sender: Session) async throws -> ChatMessage {
        try await expect(201, chat.send(text, to: room, as: sender)).decode(ChatMessage.self)
    }

    /// Whom chat would push `message` to now, and whether each is named.
    static func recipients(_ chat: ChatHarness, of message: ChatMessage) async throws -> [UserID: Bool] {
        let push = try await expect(200, chat.chat.call(ChatAPI.Internal.messagePush, message.id)).decode(ChatMessagePush.self)
        #expect(push.messageId == message.id && push.roomId == message.roomId)
        return Dictionary(uniqueKeysWithValues: push.recipients.map { ($0.userId, $0.mentioned) })
    }
}
