public import Contracts

extension MediaAPI {
    public enum Internal {
        /// A module attaching an upload to what it keeps (a profile, a team, a chat room's message):
        /// media checks that `owner` uploaded it for `purpose`, that it is ready and not attached to
        /// anything else, and records `subject`. Attaching again to the same subject answers the same
        /// (a caller may retry). 422 `MEDIA_NOT_ATTACHABLE` otherwise, with why.
        public static let attach = Endpoint<InternalCaller, AttachMediaRequest, Media>(
            .post, "/internal/media/{id}/attach", owner: .media, summary: "Attach an upload to a subject, once",
            problems: [.mediaNotAttachable])
        /// The subject no longer shows the upload (a picture replaced or removed): it goes, with its
        /// objects. Idempotent: 204 when it is gone already or attached to something else.
        public static let release = Endpoint<InternalCaller, ReleaseMediaRequest, NoContent>(
            .post, "/internal/media/{id}/release", owner: .media, summary: "Delete an upload its subject let go of", status: 204)

        /// Auth's account deletions and chat's removed messages reach media, and media answers its part of a player's export.
        public static let all: [APIOperation] = [
            attach.operation, release.operation,
            EventsAPI.deliver(to: .media).operation, EventsAPI.applied(by: .media).operation, PersonalDataAPI.export(of: .media).operation,
        ]
    }
}

/// What an upload is attached to: `user:<id>` (an avatar), `team:<id>`, `league:<id>` (logos),
/// `room:<room id>/<client message id>` (a chat message's photo, readable by the room's members).
public struct MediaSubject: Codable, Hashable, Sendable, CustomStringConvertible, SchemaDescribed {
    public enum Kind: String, Sendable, CaseIterable { case user, team, league, room }
    public var kind: Kind
    public var id: String

    public init(_ kind: Kind, _ id: any CustomStringConvertible) {
        self.kind = kind
        self.id = id.description
    }

    public init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":"), let kind = Kind(rawValue: String(text[..<colon])) else { return nil }
        self.init(kind, String(text[text.index(after: colon)...]))
    }

    public var description: String { "\(kind.rawValue):\(id)" }

    /// The chat room a `room` subject names.
    public var room: RoomID? {
        guard kind == .room else { return nil }
        return RoomID(String(id.prefix { $0 != "/" }))
    }

    public static var schema: JSONSchema { JSONSchema.string.pattern("^(user|team|league|room):.+$") }
    public static var schemaSample: MediaSubject { MediaSubject(.user, UserID()) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let subject = MediaSubject(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a media subject: \(text)"))
        }
        self = subject
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

public struct AttachMediaRequest: Codable, Equatable, Sendable {
    /// The player attaching it: only its uploader may.
    public var owner: UserID
    public var purpose: MediaPurpose
    public var subject: MediaSubject

    public init(owner: UserID, purpose: MediaPurpose, subject: MediaSubject) {
        self.owner = owner
        self.purpose = purpose
        self.subject = subject
    }
}

public struct ReleaseMediaRequest: Codable, Equatable, Sendable {
    public var subject: MediaSubject
    public init(subject: MediaSubject) { self.subject = subject }
}

/// A picture attached to what a module keeps (an avatar, a logo): the upload, who uploaded it (their
/// account's deletion deletes it), and its sizes' URLs as media answered them (public and
/// content-addressed, so they never change).
public struct AttachedPicture: Codable, Equatable, Sendable {
    public var mediaId: MediaID
    public var ownerId: UserID
    public var sizes: PictureSizes

    public init(mediaId: MediaID, ownerId: UserID, sizes: PictureSizes) {
        self.mediaId = mediaId
        self.ownerId = ownerId
        self.sizes = sizes
    }

    public init?(_ media: Media, ownerId: UserID) {
        guard let sizes = media.pictureSizes else { return nil }
        self.init(mediaId: media.id, ownerId: ownerId, sizes: sizes)
    }
}
