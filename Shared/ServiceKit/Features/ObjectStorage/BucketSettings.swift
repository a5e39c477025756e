public import AsyncHTTPClient
public import Configuration
public import Foundation
import ServiceHTTP

/// An S3-compatible bucket as a module's configuration names it under `prefix` (`media.s3`,
/// `auth.erasure.journal.s3`): `<prefix>.url` (unset: no bucket), `.bucket`, `.region` (us-east-1),
/// `.access-key` and `.secret-key` (secrets), `.public-url` (the store's address as phones reach it,
/// where the modules reach it by another) and `.create-bucket` (`true` makes it at start, for development).
public struct BucketSettings: Sendable {
    public var endpoint: URL
    public var clientEndpoint: URL?
    public var bucket: String
    public var region: String
    public var accessKey: String
    public var secretKey: String
    public var createBucket: Bool

    /// nil when `<prefix>.url` is unset.
    public init?(reader: ConfigReader, prefix: String) throws {
        guard let endpoint = reader.text("\(prefix).url"), !endpoint.isEmpty else { return nil }
        guard let url = URL(string: endpoint), let bucket = reader.text("\(prefix).bucket"), !bucket.isEmpty,
            let accessKey = reader.text("\(prefix).access-key", isSecret: true),
            let secretKey = reader.text("\(prefix).secret-key", isSecret: true)
        else {
            throw MissingConfiguration(
                key: "\(prefix).bucket", hint: "with \(prefix).url, the bucket and \(prefix).access-key and \(prefix).secret-key")
        }
        self.endpoint = url
        self.clientEndpoint = reader.text("\(prefix).public-url").flatMap { $0.isEmpty ? nil : URL(string: $0) }
        self.bucket = bucket
        self.region = reader.text("\(prefix).region", default: "us-east-1")
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.createBucket = reader.text("\(prefix).create-bucket", default: "false") == "true"
    }

    /// The bucket's store, made first when `createBucket` says so.
    public func store(httpClient: HTTPClient, now: @escaping @Sendable () -> Date) async throws -> S3ObjectStore {
        let store = S3ObjectStore(
            endpoint: endpoint, clientEndpoint: clientEndpoint, bucket: bucket,
            signer: SigV4(accessKey: accessKey, secretKey: secretKey, region: region), httpClient: httpClient, now: now)
        if createBucket { try await store.createBucket() }
        return store
    }
}
