import Configuration
import Contracts
import Foundation
import ServiceHTTP

/// Media's configuration. Keys: `media.max-bytes` (15 MB, the most it may be), `media.max-pixels` (50 megapixels),
/// `media.upload.ttl.ms` (how long an upload URL works, 15 minutes), `media.api.url` (the gateway's
/// public address, in the URLs media writes; unset, the gateway's `gateway.url`), `media.public.url` (where
/// public sizes are read: the bucket's public address; unset, `<media.api.url>/v1/media`, media
/// serving them itself). Objects go to an S3-compatible bucket when `media.s3.url` is set
/// (`media.s3.bucket`, `media.s3.region` (us-east-1), `media.s3.access-key`, `media.s3.secret-key`,
/// `media.s3.public-url`: the store's address as phones reach it, in presigned URLs and public ones,
/// when the modules reach it by another; `media.s3.create-bucket`: `true` makes the bucket at start,
/// for development), otherwise to the directory `media.storage.dir` (`data/media`).
struct MediaSettings: Sendable {
    enum Storage: Sendable {
        case directory(String)
        case s3(
            endpoint: URL, clientEndpoint: URL?, bucket: String, region: String, accessKey: String, secretKey: String, createBucket: Bool)
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
        if let endpoint = reader.text("media.s3.url"), !endpoint.isEmpty {
            guard let url = URL(string: endpoint), let bucket = reader.text("media.s3.bucket"), !bucket.isEmpty,
                let accessKey = reader.text("media.s3.access-key", isSecret: true),
                let secretKey = reader.text("media.s3.secret-key", isSecret: true)
            else {
                throw MissingConfiguration(
                    key: "media.s3.bucket", hint: "with media.s3.url, the bucket and media.s3.access-key and media.s3.secret-key")
            }
            let clientURL = reader.text("media.s3.public-url").flatMap { $0.isEmpty ? nil : URL(string: $0) }
            storage = .s3(
                endpoint: url, clientEndpoint: clientURL, bucket: bucket, region: reader.text("media.s3.region", default: "us-east-1"),
                accessKey: accessKey, secretKey: secretKey, createBucket: reader.text("media.s3.create-bucket", default: "false") == "true")
            publicBase = reader.text("media.public.url") ?? "\((clientURL ?? url).absoluteString)/\(bucket)"
        } else {
            storage = .directory(reader.text("media.storage.dir", default: "data/media"))
            publicBase = reader.text("media.public.url")
        }
    }
}
