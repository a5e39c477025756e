import Configuration
import Contracts
import Foundation
import ServiceFeatures
import ServiceHTTP

/// Media's configuration. Keys: `media.max-bytes` (15 MB, the most it may be), `media.max-pixels` (50 megapixels),
/// `media.upload.ttl.ms` (how long an upload URL works, 15 minutes), `media.api.url` (the gateway's
/// public address, in the URLs media writes; unset, the gateway's `gateway.url`), `media.public.url` (where
/// public sizes are read: the bucket's public address; unset, `<media.api.url>/v1/media`, media
/// serving them itself). Objects go to an S3-compatible bucket when `media.s3.url` is set
/// (`BucketSettings`: `media.s3.bucket`, `.region`, `.access-key`, `.secret-key`, `.public-url` — in
/// presigned URLs and public ones —, `.create-bucket`), otherwise to the directory `media.storage.dir` (`data/media`).
struct MediaSettings: Sendable {
    enum Storage: Sendable {
        case directory(String)
        case s3(BucketSettings)
    }

    var limits: Uploads.Limits
    var maxPixels: Int
    var apiBase: String?
    var publicBase: String?
    var storage: Storage
    /// `media.sweep.ms`: how often uploads never completed are looked for (an hour).
    var sweepInterval: Duration

    init(reader: ConfigReader) throws {
        limits = Uploads.Limits(
            maxBytes: min(MediaLimits.maxBytes, max(1, reader.integer("media.max-bytes", default: MediaLimits.maxBytes))),
            uploadLifetime: TimeInterval(max(1000, reader.integer("media.upload.ttl.ms", default: 900_000))) / 1000)
        maxPixels = max(1, reader.integer("media.max-pixels", default: 50_000_000))
        sweepInterval = reader.milliseconds("media.sweep.ms", default: 3_600_000)
        apiBase = reader.text("media.api.url").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "/")) }
        if let bucket = try BucketSettings(reader: reader, prefix: "media.s3") {
            storage = .s3(bucket)
            publicBase = reader.text("media.public.url") ?? "\((bucket.clientEndpoint ?? bucket.endpoint).absoluteString)/\(bucket.bucket)"
        } else {
            storage = .directory(reader.text("media.storage.dir", default: "data/media"))
            publicBase = reader.text("media.public.url")
        }
    }
}
