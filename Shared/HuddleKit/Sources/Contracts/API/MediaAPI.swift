public import Foundation

/// Media's operations: photos uploaded, made into three sizes, and read.
public enum MediaAPI {
    public static let createUpload = Endpoint<SignedIn, CreateUploadRequest, UploadTicket>(
        .post, "/v1/media/uploads", owner: .media,
        summary: "Start an upload: PUT its bytes to uploadUrl with exactly the headers given (a presigned URL of the object store, "
            + "or media's own in the all-in-one) before expiresAt, then complete it. 422 TOO_LARGE over media.max-bytes (15 MB)",
        status: 201, problems: [.tooLarge])
    public static let uploadContent = Endpoint<Anyone, ImageBytes, NoContent>(
        .put, "/v1/media/uploads/{id}/content", owner: .media,
        summary: "Where the all-in-one takes an upload's bytes (the uploadUrl media signed; with object storage the app PUTs to the "
            + "bucket instead). 403 when the URL expired or was changed, 413/422 TOO_LARGE over media.max-bytes",
        status: 204, query: [uploadExpires, uploadSignature], problems: [.forbidden, .notFound, .tooLarge, .payloadTooLarge])
    public static let completeUpload = Endpoint<SignedIn, NoBody, Media>(
        .post, "/v1/media/uploads/{id}/complete", owner: .media,
        summary: "Make the upload into its sizes (the uploader alone; 404 for anyone else): what is not an image of the declared "
            + "type, has more than media.max-pixels or more than media.max-bytes is refused (422 UNSUPPORTED_MEDIA, TOO_LARGE) "
            + "and removed; EXIF and GPS are stripped. 409 UPLOAD_MISSING before the bytes arrived; again once done, the same answer",
        problems: [.notFound, .unsupportedMedia, .tooLarge, .uploadMissing, .dependencyUnavailable])
    public static let media = Endpoint<SignedIn, NoBody, Media>(
        .get, "/v1/media/{id}", owner: .media, summary: "An upload and its sizes (the uploader's; 404 for anyone else)",
        problems: [.notFound])
    public static let publicFile = Endpoint<Anyone, NoBody, ImageBytes>(
        .get, "/v1/media/public/{file}", owner: .media,
        summary: "A public size (an avatar's, a logo's) where media keeps the files itself: content-addressed, so cached for a year",
        problems: [.notFound])
    public static let privateVariant = Endpoint<SignedIn, NoBody, ImageBytes>(
        .get, "/v1/media/{id}/sizes/{size}", owner: .media,
        summary: "A private photo's size (small, medium or large) for whoever may see it (404 for anyone else)",
        problems: [.notFound])

    /// `?expires=`: the upload URL's end, in seconds since 1970, as media signed it.
    public static let uploadExpires: QueryField<Int> = Query.required(
        "expires", JSONSchema.integer(0...Int(Int32.max)), description: "the upload URL's end, as media signed it",
        parse: { (text: String) -> Int? in Int(text).flatMap { $0 >= 0 && $0 <= Int(Int32.max) ? $0 : nil } }, text: { String($0) })
    /// `?signature=`: media's signature of the upload and its end (hex).
    public static let uploadSignature: QueryField<String> = Query.required(
        "signature", JSONSchema.text(64...64).pattern("^[0-9a-f]{64}$"), description: "media's signature of the upload URL",
        parse: { (text: String) -> String? in text.count == 64 && text.allSatisfy { $0.isHexDigit } ? text : nil }, text: { $0 })

    public static let all: [APIOperation] = [
        createUpload.operation, uploadContent.operation, completeUpload.operation, media.operation, publicFile.operation,
        privateVariant.operation,
    ]
}

/// An image's bytes as a request's or an answer's body (`image/jpeg`, `image/png`, `image/heic`,
/// `image/webp`), not JSON.
public struct ImageBytes: Codable, Sendable, Equatable, SchemaDescribed {
    public var data: Data
    public init(_ data: Data) { self.data = data }
    public init(from decoder: any Decoder) throws { data = try decoder.singleValueContainer().decode(Data.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(data)
    }
    public static var schema: JSONSchema { JSONSchema.string.format("binary") }
    public static var schemaSample: ImageBytes { ImageBytes(Data()) }
}
