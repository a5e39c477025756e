import Contracts
import Foundation
import ServiceHTTP

/// A room's change as its sockets receive it: the frame, with what a socket needs to choose whether
/// to pass it on (its sender, for blocks; its seq, so a message is sent once; who left the room).
struct ChatChange: VersionedMessage {
    let version: Int
    let frame: ChatServerFrame
    let senderID: UserID?
    let seq: Int?
    let leaver: UserID?

    init(_ change: RoomChange, room: RoomID, message: ChatMessage?) {
        version = change.version
        senderID = message?.senderId
        seq = message?.seq
        leaver = change.kind == .left ? change.userID : nil
        switch change.kind {
        case .message:
            frame = ChatServerFrame(type: .message, roomId: room, message: message)
        case .edited where message?.deleted != true:
            frame = ChatServerFrame(type: .edited, roomId: room, message: message)
        case .edited, .deleted:
            frame = ChatServerFrame(type: .deleted, roomId: room, id: change.messageID, seq: message?.seq)
        case .left:
            frame = Self.gone(room)
        }
    }

    /// What a socket is told when its user may no longer use a room it was subscribed to.
    static func gone(_ room: RoomID) -> ChatServerFrame {
        ChatServerFrame(type: .error, roomId: room, code: ProblemCode.notFound.code, detail: localized("You are no longer in this room."))
    }

    func encode(to encoder: any Encoder) throws { try frame.encode(to: encoder) }
}

/// Each room's changes, fanned out to the sockets subscribed to it on this instance.
typealias LiveRooms = LiveFeed<RoomID, ChatChange>
