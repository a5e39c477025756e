public import Foundation

public enum RoomTag: NamedThing { public static let noun = "room" }
public enum ChatMessageTag: NamedThing { public static let noun = "message" }

public typealias RoomID = TypedID<RoomTag>
public typealias ChatMessageID = TypedID<ChatMessageTag>

/// What a room is for: everyone signed in (`global`), a team's members, a game's roster (going,
/// maybe, invited, waitlisted), a professional match's fans (anyone), or two players (`direct`).
public enum RoomKind: String, Codable, Sendable, CaseIterable, WireEnum {
    case global, team, game, match, direct
}

/// A message as a room shows it. `seq` numbers the room's messages from 1 without gaps; a deleted
/// message keeps its place (`deleted: true`, empty `text`).
public struct ChatMessage: Codable, Equatable, Sendable {
    public var id: ChatMessageID
    public var roomId: RoomID
    public var seq: Int
    public var senderId: UserID
    public var senderName: String
    public var text: String
    public var clientMessageId: String
    public var sentAt: Date
    public var editedAt: Date?
    public var deleted: Bool?
    /// Withheld until a moderator decides, because enough players reported it: its text is empty.
    /// A dismissal brings it back (an `edited` frame on live sockets either way).
    public var hidden: Bool?
    /// Its photos (up to four), readable by the room's members only: their sizes' URLs are read
    /// through the gateway with the member's token. Absent when it has none, is deleted or withheld.
    public var attachments: [Media]?
    /// The sender's profile picture as it is now.
    public var senderPicture: PictureSizes?

    public init(
        id: ChatMessageID, roomId: RoomID, seq: Int, senderId: UserID, senderName: String, text: String, clientMessageId: String,
        sentAt: Date, editedAt: Date? = nil, deleted: Bool? = nil, hidden: Bool? = nil, attachments: [Media]? = nil,
        senderPicture: PictureSizes? = nil
    ) {
        self.attachments = attachments
        self.senderPicture = senderPicture
        self.id = id
        self.roomId = roomId
        self.seq = seq
        self.senderId = senderId
        self.senderName = senderName
        self.text = text
        self.clientMessageId = clientMessageId
        self.sentAt = sentAt
        self.editedAt = editedAt
        self.deleted = deleted
        self.hidden = hidden
    }
}

/// A room I may use, with what I have not read yet. `subjectId` is the team, game or match the room
/// belongs to, or the other player of a direct room.
public struct ChatRoom: Codable, Equatable, Sendable {
    public var id: RoomID
    public var kind: RoomKind
    public var name: String
    public var subjectId: String?
    public var unreadCount: Int
    public var lastSeq: Int
    public var readSeq: Int
    public var lastMessage: ChatMessage?
    /// I muted the room: its messages are not pushed to me, except those naming me. Until `mutedUntil`, or for good without it.
    public var muted: Bool
    public var mutedUntil: Date?

    public init(
        id: RoomID, kind: RoomKind, name: String, subjectId: String?, unreadCount: Int, lastSeq: Int, readSeq: Int,
        lastMessage: ChatMessage?, muted: Bool = false, mutedUntil: Date? = nil
    ) {
        self.muted = muted
        self.mutedUntil = mutedUntil
        self.id = id
        self.kind = kind
        self.name = name
        self.subjectId = subjectId
        self.unreadCount = unreadCount
        self.lastSeq = lastSeq
        self.readSeq = readSeq
        self.lastMessage = lastMessage
    }
}

/// `PUT /v1/chat/rooms/{id}/mute`: no pushes from the room but those naming me, until `until` (for good without it).
public struct MuteRoomRequest: Codable, Equatable, Sendable {
    public var until: Date?

    public init(until: Date? = nil) { self.until = until }
}

/// `POST /v1/chat/rooms/{id}/messages`: `clientMessageId` is the device's own id for the message, so
/// that a retry returns the message sent first instead of sending it again.
/// A message is text, photos (`mediaIds`: up to four of my completed `chatPhoto` uploads), or both.
public struct SendChatMessage: Codable, Equatable, Sendable {
    public var text: String?
    public var mediaIds: [MediaID]?
    public var clientMessageId: String

    public init(text: String? = nil, mediaIds: [MediaID]? = nil, clientMessageId: String) {
        self.text = text
        self.mediaIds = mediaIds
        self.clientMessageId = clientMessageId
    }
}

public struct EditChatMessage: Codable, Equatable, Sendable {
    public var text: String

    public init(text: String) { self.text = text }
}

/// `POST /v1/chat/rooms/{id}/read`: I have read up to `seq`.
public struct ChatReadMarker: Codable, Equatable, Sendable {
    public var seq: Int

    public init(seq: Int) { self.seq = seq }
}

public struct DirectRoomRequest: Codable, Equatable, Sendable {
    public var userId: UserID

    public init(userId: UserID) { self.userId = userId }
}

public struct ChatBlock: Codable, Equatable, Sendable {
    public var userId: UserID
    public var blockedAt: Date

    public init(userId: UserID, blockedAt: Date) {
        self.userId = userId
        self.blockedAt = blockedAt
    }
}

/// A frame a device sends on `GET /v1/chat/live`: `subscribe` (with `afterSeq`, the messages after
/// it come first), `unsubscribe`, or `send` (as `POST …/messages`, answered by the message itself
/// arriving on the socket, or by an `error` frame naming the `clientMessageId`).
public struct ChatClientFrame: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable, CaseIterable, WireEnum { case subscribe, unsubscribe, send }

    public var type: Kind
    public var roomId: RoomID
    public var afterSeq: Int?
    public var text: String?
    public var mediaIds: [MediaID]?
    public var clientMessageId: String?

    public init(
        type: Kind, roomId: RoomID, afterSeq: Int? = nil, text: String? = nil, mediaIds: [MediaID]? = nil, clientMessageId: String? = nil
    ) {
        self.type = type
        self.roomId = roomId
        self.afterSeq = afterSeq
        self.text = text
        self.mediaIds = mediaIds
        self.clientMessageId = clientMessageId
    }

    public static func subscribe(_ room: RoomID, afterSeq: Int? = nil) -> ChatClientFrame {
        ChatClientFrame(type: .subscribe, roomId: room, afterSeq: afterSeq)
    }

    public static func send(_ text: String?, photos: [MediaID]? = nil, to room: RoomID, clientMessageId: String) -> ChatClientFrame {
        ChatClientFrame(type: .send, roomId: room, text: text, mediaIds: photos, clientMessageId: clientMessageId)
    }
}

/// A frame the server sends on `GET /v1/chat/live`.
public struct ChatServerFrame: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable, CaseIterable, WireEnum { case subscribed, message, edited, deleted, error }

    public var type: Kind
    public var roomId: RoomID?
    /// `subscribed`: the room's last seq when the subscription began.
    public var lastSeq: Int?
    /// `message`, `edited`.
    public var message: ChatMessage?
    /// `deleted`: the message's id and seq.
    public var id: ChatMessageID?
    public var seq: Int?
    /// `error`: a problem code (`RATE_LIMITED`, `NOT_FOUND`, …) and what went wrong.
    public var code: String?
    public var detail: String?
    public var clientMessageId: String?
    /// `error` with `RATE_LIMITED`: seconds until the next message is taken.
    public var retryAfter: Int?

    public init(
        type: Kind, roomId: RoomID? = nil, lastSeq: Int? = nil, message: ChatMessage? = nil, id: ChatMessageID? = nil, seq: Int? = nil,
        code: String? = nil, detail: String? = nil, clientMessageId: String? = nil, retryAfter: Int? = nil
    ) {
        self.type = type
        self.roomId = roomId
        self.lastSeq = lastSeq
        self.message = message
        self.id = id
        self.seq = seq
        self.code = code
        self.detail = detail
        self.clientMessageId = clientMessageId
        self.retryAfter = retryAfter
    }
}
