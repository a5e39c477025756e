import AsyncHTTPClient
import Contracts
import Crypto
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceFeatures
import ServiceHTTP
import ServiceKitTesting
import ServiceStore
import Testing

@testable import MediaService

/// Uploads from created to made into sizes, on both stores, with the all-in-one's directory and
/// with an S3-compatible server (moto's, when `HUDDLE_TEST_S3_URL` names one).
@Suite("Uploads")
struct UploadsTests {
    static let s3URL = ProcessInfo.processInfo.environment["HUDDLE_TEST_S3_URL"].flatMap(URL.init(string:))
    static let maxBytes = 15_000_000

    /// `body` gets the uploads over a fresh database of `store` and the object store it writes to.
    static func with<T>(
        store: TestStore, objects: (any ObjectStore)? = nil, now: @escaping @Sendable () -> Date = { Date() },
        roomMembers: RoomMembers = RoomMembers { _, _ in false },
        _ body: (Uploads, any ObjectStore) async throws -> T
    ) async throws -> T {
        let logger = Logger.quiet("media-test")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("media-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let objects = try objects ?? FileObjectStore(directory: directory)
        return try await store.withDatabase(logger: logger) { database in
            try await database.migrate(MediaMigrations.all, logger: logger)
            let uploads = Uploads(
                database: database, store: SQLUploadStore(), objects: objects, processor: try ImageProcessor(maxPixels: 40_000_000),
                limits: .init(maxBytes: maxBytes, uploadLifetime: 900),
                links: UploadLinks(
                    api: { "http://127.0.0.1:8080" }, publicBase: "http://127.0.0.1:8080/v1/media/files", key: SymmetricKey(size: .bits256)),
                roomMembers: roomMembers, logger: logger, now: now)
            return try await body(uploads, objects)
        }
    }

    /// Sends `bytes` as the app would: to the ticket's URL, which in the all-in-one is media's own.
    static func send(_ bytes: Data, with ticket: UploadTicket, to uploads: Uploads) async throws {
        let url = try #require(URLComponents(string: ticket.uploadUrl))
        if url.path.hasSuffix("/content") {
            let query = Dictionary(uniqueKeysWithValues: (url.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            try await uploads.receive(
                ticket.id, bytes, expires: Int(query["expires"] ?? "") ?? 0, signature: query["signature"] ?? "")
        } else {
            var request = HTTPClientRequest(url: ticket.uploadUrl)
            request.method = .PUT
            for (name, value) in ticket.headers { request.headers.add(name: name, value: value) }
            request.body = .bytes(ByteBuffer(data: bytes))
            #expect(try await HTTPClient.shared.execute(request, timeout: .seconds(10)).status == .ok)
        }
    }

    static func expectProblem(_ code: ProblemCode, _ body: () async throws -> Void) async {
        do {
            try await body()
            Issue.record("no problem; expected \(code.code)")
        } catch let error as MediaError {
            #expect(error.problem.code == code.code, "\(error.problem)")
        } catch { Issue.record("\(error)") }
    }

    static func checkReady(_ media: Media, purpose: MediaPurpose, objects: any ObjectStore) async throws {
        #expect(media.status == .ready && media.purpose == purpose && media.width == 1500 && media.height == 2000)
        let variants = try #require(media.variants)
        #expect(
            [variants.small, variants.medium, variants.large].map { [$0.width, $0.height] } == [[96, 128], [384, 512], [1200, 1600]])
        for variant in [variants.small, variants.medium, variants.large] {
            let key = try #require(variant.url.split(separator: "/v1/media/files/").last.map(String.init))
            let bytes = try #require(try await objects.get(key, limit: 1 << 22), "no object at \(key)")
            let header = try ImageProcessor(maxPixels: 40_000_000).header(of: bytes)
            #expect(header.format == .jpeg && !header.hasGPS && !header.hasEXIF)
        }
    }

    @Test(
        "a phone's photo goes up and comes back in three sizes without its GPS; the original is gone; nobody else sees it",
        arguments: TestStore.all)
    func avatar(store: TestStore) async throws {
        try await Self.with(store: store) { uploads, objects in
            let owner = UserID(), photo = try ImageProcessor.sampleJPEG(width: 2000, height: 1500, orientation: 6)
            let ticket = try await uploads.create(.init(purpose: .avatar, contentType: .jpeg, byteSize: photo.count), by: owner)
            #expect(ticket.method == "PUT" && ticket.headers == ["Content-Type": "image/jpeg"])
            try await Self.send(photo, with: ticket, to: uploads)
            #expect(try await uploads.media(ticket.id, viewer: owner).status == .processing)
            let media = try await uploads.complete(ticket.id, by: owner)
            try await Self.checkReady(media, purpose: .avatar, objects: objects)
            #expect(try await objects.get("uploads/\(ticket.id)", limit: 10) == nil, "the original, with its GPS, is kept")
            // Completing again answers what was made; another player sees nothing.
            #expect(try await uploads.complete(ticket.id, by: owner) == media)
            await #expect(throws: CommonError.self) { _ = try await uploads.media(ticket.id, viewer: UserID()) }
            await #expect(throws: CommonError.self) { _ = try await uploads.complete(ticket.id, by: UserID()) }
        }
    }

    @Test(
        "refused with a problem, nothing left behind: a text file named .jpg, a PNG sent as a JPEG, a decompression bomb, too many bytes",
        arguments: TestStore.all)
    func refusals(store: TestStore) async throws {
        try await Self.with(store: store) { uploads, objects in
            let owner = UserID()
            let bomb = PNG.make(width: 100_000, height: 100_000, rows: 1) { _, _ in [0, 0, 0, 255] }
            let png = PNG.make(width: 20, height: 20) { _, _ in [1, 2, 3, 255] }
            for (bytes, type) in [(Data("just text, named photo.jpg".utf8), MediaContentType.jpeg), (png, .jpeg), (bomb, .png)] {
                let ticket = try await uploads.create(.init(purpose: .avatar, contentType: type, byteSize: bytes.count), by: owner)
                try await Self.send(bytes, with: ticket, to: uploads)
                await Self.expectProblem(.unsupportedMedia) { _ = try await uploads.complete(ticket.id, by: owner) }
                let media = try await uploads.media(ticket.id, viewer: owner)
                #expect(media.status == .rejected && media.variants == nil)
                #expect(try await objects.get("uploads/\(ticket.id)", limit: 10) == nil)
            }
            await Self.expectProblem(.tooLarge) {
                _ = try await uploads.create(.init(purpose: .avatar, contentType: .jpeg, byteSize: Self.maxBytes + 1), by: owner)
            }
            let ticket = try await uploads.create(.init(purpose: .avatar, contentType: .jpeg, byteSize: 10), by: owner)
            await Self.expectProblem(.tooLarge) { try await Self.send(Data(count: Self.maxBytes + 1), with: ticket, to: uploads) }
        }
    }

    @Test("completed before its bytes: 409, and it can be completed once they arrive; an upload URL changed or expired is refused")
    func order() async throws {
        let clock = SettableClock(Date())
        try await Self.with(store: .sqlite, now: { clock.now }) { uploads, objects in
            let owner = UserID(), photo = try ImageProcessor.sampleJPEG(width: 2000, height: 1500, orientation: 6)
            let ticket = try await uploads.create(.init(purpose: .teamLogo, contentType: .jpeg, byteSize: photo.count), by: owner)
            await Self.expectProblem(.uploadMissing) { _ = try await uploads.complete(ticket.id, by: owner) }
            await Self.expectProblem(.forbidden) {
                try await uploads.receive(ticket.id, photo, expires: Int(clock.now.timeIntervalSince1970) + 600, signature: "forged")
            }
            try await Self.send(photo, with: ticket, to: uploads)
            try await Self.checkReady(try await uploads.complete(ticket.id, by: owner), purpose: .teamLogo, objects: objects)

            let late = try await uploads.create(.init(purpose: .avatar, contentType: .jpeg, byteSize: photo.count), by: owner)
            clock.advance(by: 901)
            await Self.expectProblem(.forbidden) { try await Self.send(photo, with: late, to: uploads) }
        }
    }

    @Test("an upload never completed is removed with its bytes a day after its URL expired, and not before")
    func abandoned() async throws {
        let clock = SettableClock(Date())
        try await Self.with(store: .sqlite, now: { clock.now }) { uploads, objects in
            let owner = UserID(), photo = try ImageProcessor.sampleJPEG(width: 300, height: 200)
            let left = try await uploads.create(.init(purpose: .avatar, contentType: .jpeg, byteSize: photo.count), by: owner)
            try await Self.send(photo, with: left, to: uploads)
            let done = try await uploads.create(.init(purpose: .avatar, contentType: .jpeg, byteSize: photo.count), by: owner)
            try await Self.send(photo, with: done, to: uploads)
            _ = try await uploads.complete(done.id, by: owner)
            clock.advance(by: 900 + 86_000)
            await uploads.sweepAbandoned()
            #expect(try await uploads.media(left.id, viewer: owner).status == .processing)
            clock.advance(by: 500)
            await uploads.sweepAbandoned()
            await #expect(throws: CommonError.self) { _ = try await uploads.media(left.id, viewer: owner) }
            #expect(try await objects.get("uploads/\(left.id)", limit: 10) == nil)
            #expect(try await uploads.media(done.id, viewer: owner).status == .ready)
        }
    }

    @Test("two instances completing one upload at once: one makes the sizes, the other answers it as processing")
    func claimedOnce() async throws {
        try await Self.with(store: .sqlite) { uploads, _ in
            let at = Date(), id = MediaID()
            try await uploads.database.transaction { sql in
                try await SQLUploadStore().insert(
                    Upload(
                        id: id, owner: UserID(), purpose: .avatar, contentType: .jpeg, byteSize: 1, state: .awaiting, createdAt: at,
                        expiresAt: at, variants: []), on: sql)
            }
            func claim(at date: Date) async throws -> Bool {
                try await uploads.database.transaction { sql in
                    try await SQLUploadStore().claim(id, at: date, leaseUntil: date.addingTimeInterval(120), on: sql)
                }
            }
            #expect(try await claim(at: at))
            #expect(try await !claim(at: at.addingTimeInterval(60)))
            // The instance that claimed it died: after its lease another takes it over.
            #expect(try await claim(at: at.addingTimeInterval(121)))
        }
    }

    @Test(
        "object storage that is down: creating an upload still answers its URL; completing it is a 503 at once and leaves it to try again")
    func storageDown() async throws {
        let down = S3ObjectStore(
            endpoint: try #require(URL(string: "http://127.0.0.1:\(try await freeLoopbackPort())")), bucket: "huddle-media",
            signer: SigV4(accessKey: "a", secretKey: "s", region: "us-east-1"), httpClient: .shared, timeout: .seconds(2), now: { Date() })
        try await Self.with(store: .sqlite, objects: down) { uploads, _ in
            let owner = UserID()
            let ticket = try await uploads.create(.init(purpose: .avatar, contentType: .jpeg, byteSize: 100), by: owner)
            do {
                _ = try await uploads.complete(ticket.id, by: owner)
                Issue.record("completed with its storage down")
            } catch let error as ObjectStoreUnavailable {
                #expect(error.problem.status == 503)
            }
            // Not rejected: the claim lapses and the app completes it once the store is back.
            #expect(try await uploads.media(ticket.id, viewer: owner).status == .processing)
        }
    }

    @Test("with an S3-compatible server: the app PUTs to a presigned URL, and the sizes are kept in the bucket", .enabled(if: s3URL != nil))
    func throughS3() async throws {
        let bucket = "huddle-media-\(UUID().uuidString.prefix(8).lowercased())"
        let s3 = S3ObjectStore(
            endpoint: try #require(Self.s3URL), bucket: bucket,
            signer: SigV4(accessKey: "huddle-test", secretKey: "huddle-test-secret", region: "us-east-1"), httpClient: .shared,
            now: { Date() })
        try await s3.createBucket()
        try await Self.with(store: .sqlite, objects: s3) { uploads, objects in
            let owner = UserID(), photo = try ImageProcessor.sampleJPEG(width: 2000, height: 1500, orientation: 6)
            let ticket = try await uploads.create(.init(purpose: .avatar, contentType: .jpeg, byteSize: photo.count), by: owner)
            #expect(ticket.uploadUrl.contains("/\(bucket)/uploads/") && ticket.uploadUrl.contains("X-Amz-Signature="))
            try await Self.send(photo, with: ticket, to: uploads)
            try await Self.checkReady(try await uploads.complete(ticket.id, by: owner), purpose: .avatar, objects: objects)
        }
    }
}
