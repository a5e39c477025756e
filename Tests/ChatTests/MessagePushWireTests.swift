import Contracts
import Foundation
import ServerContracts
import Testing

/// Whom a message is pushed to travels from chat to notify as two lists of ids, and notify still
/// reads the form before them (one object a recipient) from a chat not yet upgraded.
@Suite("A message push on the wire")
struct MessagePushWireTests {
    static let (every, named, both) = (UserID(), UserID(), UserID())

    static func push(_ recipients: [ChatMessagePush.Recipient]) -> ChatMessagePush {
        ChatMessagePush(
            messageId: ChatMessageID(), roomId: RoomID(), roomKind: .team, roomName: "Kalev", senderId: UserID(), senderName: "Bruno",
            text: "@Mari training at 19", photoCount: 1, recipients: recipients)
    }

    /// In the order the two lists give back: those pushed every message, then those only named.
    static let recipients = [
        ChatMessagePush.Recipient(userId: every, mentioned: false, everyMessage: true),
        ChatMessagePush.Recipient(userId: both, mentioned: true, everyMessage: true),
        ChatMessagePush.Recipient(userId: named, mentioned: true, everyMessage: false),
    ]

    @Test("each recipient comes back once with both flags")
    func roundTrip() throws {
        let push = Self.push(Self.recipients)
        let json = try HuddleJSON.encoder.encode(push)
        #expect(try HuddleJSON.decoder.decode(ChatMessagePush.self, from: json) == push)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(Set(object["everyMessage"] as? [String] ?? []) == [Self.every.description, Self.both.description])
        #expect(Set(object["mentioned"] as? [String] ?? []) == [Self.named.description, Self.both.description])
        #expect(object["recipients"] == nil)
    }

    @Test("a push to no one has two empty lists")
    func noOne() throws {
        let push = Self.push([])
        #expect(try HuddleJSON.decoder.decode(ChatMessagePush.self, from: try HuddleJSON.encoder.encode(push)) == push)
    }

    @Test("the form of one object a recipient is still read")
    func earlierForm() throws {
        let push = Self.push(Self.recipients)
        var object = try #require(try JSONSerialization.jsonObject(with: try HuddleJSON.encoder.encode(push)) as? [String: Any])
        object["everyMessage"] = nil
        object["mentioned"] = nil
        object["recipients"] = Self.recipients.map {
            ["userId": $0.userId.description, "mentioned": $0.mentioned, "everyMessage": $0.everyMessage] as [String: Any]
        }
        let earlier = try JSONSerialization.data(withJSONObject: object)
        #expect(try HuddleJSON.decoder.decode(ChatMessagePush.self, from: earlier) == push)
    }
}
