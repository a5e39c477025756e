public import Foundation

// Wire types of photos: uploads and the sizes made of them.

public enum MediaTag: NamedThing { public static let noun = "media" }
public typealias MediaID = TypedID<MediaTag>

/// What an upload is for: it can be attached only to something of the same purpose.
public enum MediaPurpose: String, Codable, Sendable, CaseIterable, WireEnum {
    case avatar, teamLogo, leagueLogo, chatPhoto, coursePhoto

    /// Avatars, logos and course photos are public, at long-lived content-addressed URLs; a chat
    /// photo is for the room's members only.
    public var isPublic: Bool { self != .chatPhoto }
}

/// The image types an app may upload.
public enum MediaContentType: String, Codable, Sendable, CaseIterable, WireEnum {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case heic = "image/heic"
    case webp = "image/webp"
}

public enum MediaStatus: String, Codable, Sendable, CaseIterable, WireEnum {
    /// Uploaded or not yet, and not made into its sizes yet.
    case processing
    case ready
    /// Not an image of the declared type, or too large: nothing of it was kept.
    case rejected
}

/// `POST /v1/media/uploads`.
public struct CreateUploadRequest: Codable, Equatable, Sendable, FieldConstraints {
    public var purpose: MediaPurpose
    public var contentType: MediaContentType
    /// The bytes the app will send: at most 15 MB, and over a deployment's lower `media.max-bytes` 422 `TOO_LARGE`.
    public var byteSize: Int

    public init(purpose: MediaPurpose, contentType: MediaContentType, byteSize: Int) {
        self.purpose = purpose
        self.contentType = contentType
        self.byteSize = byteSize
    }

    public static var constraints: [String: JSONSchema] { ["byteSize": .integer(1...MediaLimits.maxBytes)] }
}

public enum MediaLimits {
    /// The most an upload may be (`media.max-bytes` may lower it, never raise it past this).
    public static let maxBytes = 15_000_000
}

/// Where and how to send an upload's bytes: a PUT of exactly these headers to `uploadUrl`, before `expiresAt`.
public struct UploadTicket: Codable, Equatable, Sendable {
    public var id: MediaID
    public var uploadUrl: String
    public var method: String
    public var headers: [String: String]
    public var expiresAt: Date

    public init(id: MediaID, uploadUrl: String, method: String, headers: [String: String], expiresAt: Date) {
        self.id = id
        self.uploadUrl = uploadUrl
        self.method = method
        self.headers = headers
        self.expiresAt = expiresAt
    }
}

/// One size of a photo: a JPEG at most `width` × `height`.
public struct MediaVariant: Codable, Equatable, Sendable {
    public var url: String
    public var width: Int
    public var height: Int
    public var contentType: String

    public init(url: String, width: Int, height: Int, contentType: String) {
        self.url = url
        self.width = width
        self.height = height
        self.contentType = contentType
    }
}

/// The three sizes: at most 128, 512 and 1600 pixels on the longest side, never larger than the upload.
public struct MediaVariants: Codable, Equatable, Sendable {
    public var small: MediaVariant
    public var medium: MediaVariant
    public var large: MediaVariant

    public init(small: MediaVariant, medium: MediaVariant, large: MediaVariant) {
        self.small = small
        self.medium = medium
        self.large = large
    }
}

/// An upload and what was made of it.
public struct Media: Codable, Equatable, Sendable {
    public var id: MediaID
    public var purpose: MediaPurpose
    public var status: MediaStatus
    /// The upright size of the upload, once read.
    public var width: Int?
    public var height: Int?
    public var variants: MediaVariants?

    public init(
        id: MediaID, purpose: MediaPurpose, status: MediaStatus, width: Int? = nil, height: Int? = nil, variants: MediaVariants? = nil
    ) {
        self.id = id
        self.purpose = purpose
        self.status = status
        self.width = width
        self.height = height
        self.variants = variants
    }
}

/// A public picture's three sizes (an avatar, a logo), by URL: content-addressed, so each URL shows one picture
/// for good and may be cached for as long as an app likes.
public struct PictureSizes: Codable, Equatable, Sendable {
    public var small: String
    public var medium: String
    public var large: String

    public init(small: String, medium: String, large: String) {
        self.small = small
        self.medium = medium
        self.large = large
    }
}

extension Media {
    /// The URLs of its sizes, once made.
    public var pictureSizes: PictureSizes? {
        variants.map { PictureSizes(small: $0.small.url, medium: $0.medium.url, large: $0.large.url) }
    }
}
