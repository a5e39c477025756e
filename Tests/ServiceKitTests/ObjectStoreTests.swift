import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceFeatures
import ServiceKitTesting
import Testing

/// Both object stores through the same calls: the directory of the all-in-one, and an S3-compatible
/// server (moto's, which `.ci/run` starts and names in `HUDDLE_TEST_S3_URL`), including a client's
/// upload through a presigned URL.
@Suite("Object stores")
struct ObjectStoreTests {
    static let s3URL = ProcessInfo.processInfo.environment["HUDDLE_TEST_S3_URL"].flatMap(URL.init(string:))

    static func s3(
        bucket: String = "huddle-test-\(UUID().uuidString.prefix(8).lowercased())", region: String = "us-east-1"
    ) async throws -> S3ObjectStore {
        let store = S3ObjectStore(
            endpoint: try #require(s3URL), bucket: bucket,
            signer: SigV4(accessKey: "huddle-test", secretKey: "huddle-test-secret", region: region), httpClient: .shared,
            now: { Date() })
        try await store.createBucket()
        return store
    }

    static func roundTrip(_ store: any ObjectStore) async throws {
        let key = "media/\(UUID().uuidString.lowercased())/large.jpg", bytes = Data((0..<5000).map { UInt8($0 % 251) })
        #expect(try await store.get(key, limit: 1 << 20) == nil)
        try await store.put(key, bytes, contentType: "image/jpeg", cacheControl: "public, max-age=31536000, immutable")
        #expect(try await store.get(key, limit: 1 << 20) == bytes)
        try await store.delete(key)
        #expect(try await store.get(key, limit: 1 << 20) == nil)
        try await store.delete(key)
    }

    /// Five objects under a prefix and one beside it: a listing of the prefix names the five, in order.
    static func listing(_ store: any ObjectStore) async throws {
        let prefix = "journal-\(UUID().uuidString.prefix(8).lowercased())/"
        let keys = (1...5).map { "\(prefix)000\($0)-entry" }
        for key in keys.reversed() { try await store.put(key, Data("{}".utf8), contentType: "application/json", cacheControl: nil) }
        try await store.put("\(prefix.dropLast())-beside", Data(), contentType: "application/json", cacheControl: nil)
        #expect(try await store.keys(under: prefix) == keys)
        #expect(try await store.keys(under: "nothing-here/").isEmpty)
    }

    @Test("a directory and an S3-compatible server list the keys under a prefix, over several pages of the server's listing")
    func keysUnderPrefix() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("objects-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await Self.listing(try FileObjectStore(directory: directory))
        guard Self.s3URL != nil else { return }
        var bucket = try await Self.s3()
        bucket.listPageSize = 2
        try await Self.listing(bucket)
    }

    @Test("a directory keeps, returns and removes an object, and refuses a key that climbs out")
    func directory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("objects-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try FileObjectStore(directory: directory)
        try await Self.roundTrip(store)
        await #expect(throws: ObjectStoreUnavailable.self) { _ = try await store.get("../escape", limit: 10) }
        #expect(store.uploadTarget(for: "a.jpg", contentType: "image/jpeg", byteSize: 10, expires: Date(), now: Date()) == nil)
    }

    @Test(
        "an S3-compatible server keeps, returns and removes an object, in a bucket made in us-east-1 or in another region",
        .enabled(if: s3URL != nil), arguments: ["us-east-1", "eu-central-1"])
    func s3RoundTrip(region: String) async throws {
        let store = try await Self.s3(region: region)
        try await Self.roundTrip(store)
        // Made again (a second instance starting): the bucket is already there, which is fine.
        try await store.createBucket()
    }

    @Test("a client PUTs through the presigned URL with the headers given, and the object is there", .enabled(if: s3URL != nil))
    func presignedUpload() async throws {
        let store = try await Self.s3(), key = "uploads/\(UUID().uuidString.lowercased())", bytes = Data(repeating: 7, count: 1234)
        let now = Date()
        let target = try #require(
            store.uploadTarget(for: key, contentType: "image/png", byteSize: bytes.count, expires: now.addingTimeInterval(900), now: now))
        #expect(target.url.query?.contains("X-Amz-Signature=") == true && target.headers == ["Content-Type": "image/png"])
        var request = HTTPClientRequest(url: target.url.absoluteString)
        request.method = .PUT
        for (name, value) in target.headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(data: bytes))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        #expect(response.status == .ok)
        #expect(try await store.get(key, limit: 1 << 20) == bytes)
    }

    @Test("with its public prefix open, anyone reads what is under it, and nothing else", .enabled(if: s3URL != nil))
    func publicReads() async throws {
        let store = try await Self.s3()
        try await store.allowPublicReads(under: "public/")
        for key in ["public/open.jpg", "private/closed.jpg"] {
            try await store.put(key, Data("bytes".utf8), contentType: "image/jpeg", cacheControl: nil)
        }
        let open = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: store.url(of: "public/open.jpg").absoluteString), timeout: .seconds(10))
        #expect(open.status == .ok)
        let closed = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: store.url(of: "private/closed.jpg").absoluteString), timeout: .seconds(10))
        #expect(closed.status == .forbidden)
    }

    @Test("a store that is down is unavailable at once, never a hang")
    func down() async throws {
        let store = S3ObjectStore(
            endpoint: try #require(URL(string: "http://127.0.0.1:\(try await freeLoopbackPort())")), bucket: "b",
            signer: SigV4(accessKey: "a", secretKey: "s", region: "us-east-1"), httpClient: .shared, timeout: .seconds(2), now: { Date() })
        await #expect(throws: ObjectStoreUnavailable.self) { _ = try await store.get("k", limit: 10) }
    }
}
