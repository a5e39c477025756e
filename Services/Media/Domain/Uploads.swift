import Contracts
import Crypto
import Foundation
import Logging
import NIOPosix
import ServiceFeatures
import ServiceHTTP
import ServiceStore

/// Uploads from created to made into sizes. The bytes go to the object store (directly through a
/// presigned URL, or through `receive` in the all-in-one); completing one claims it (so two
/// instances never process it twice), reads it back, refuses what is not an image of the declared
/// type, and stores its three sizes, content-addressed when public.
struct Uploads: Sendable {
    struct Limits: Sendable {
        /// `media.max-bytes`: 15 MB.
        var maxBytes: Int
        /// `media.upload.ttl.ms`: how long an upload URL works, 15 minutes.
        var uploadLifetime: TimeInterval
        /// How long an instance may take to process one before another may take it over.
        var processingLease: TimeInterval = 120
    }

    let database: Database
    let store: any UploadStore
    let objects: any ObjectStore
    let processor: ImageProcessor
    let limits: Limits
    let links: UploadLinks
    let roomMembers: RoomMembers
    let logger: Logger
    let now: @Sendable () -> Date

    static let publicCaching = "public, max-age=31536000, immutable"
    static let privateCaching = "private, max-age=3600"

    /// An upload for `owner`, and where to send its bytes.
    func create(_ request: CreateUploadRequest, by owner: UserID) async throws -> UploadTicket {
        guard request.byteSize <= limits.maxBytes else { throw MediaError.tooLarge(maxBytes: limits.maxBytes) }
        let now = self.now(), expires = now.addingTimeInterval(limits.uploadLifetime)
        let upload = Upload(
            id: MediaID(), owner: owner, purpose: request.purpose, contentType: request.contentType, byteSize: request.byteSize,
            state: .awaiting, createdAt: now, expiresAt: expires, variants: [])
        try await database.transaction { sql in try await store.insert(upload, on: sql) }
        let direct = objects.uploadTarget(
            for: upload.originalKey, contentType: request.contentType.rawValue, byteSize: request.byteSize, expires: expires, now: now)
        let target =
            direct
            ?? UploadTarget(
                url: links.upload(upload.id, expires: expires), method: "PUT", headers: ["Content-Type": request.contentType.rawValue])
        return UploadTicket(
            id: upload.id, uploadUrl: target.url.absoluteString, method: target.method, headers: target.headers, expiresAt: expires)
    }

    /// The bytes of an upload sent to media itself (the all-in-one), through a URL it signed.
    func receive(_ id: MediaID, _ bytes: Data, expires: Int, signature: String) async throws {
        guard links.accepts(id, expires: expires, signature: signature, now: now()) else { throw MediaError.uploadURLInvalid }
        guard bytes.count <= limits.maxBytes else { throw MediaError.tooLarge(maxBytes: limits.maxBytes) }
        guard let upload = try await database.read({ sql in try await store.upload(id, on: sql) }), upload.state == .awaiting else {
            throw CommonError.missing(id)
        }
        try await objects.put(upload.originalKey, bytes, contentType: upload.contentType.rawValue, cacheControl: nil)
    }

    /// Makes the upload into its sizes; its owner alone may. Completing one that is done answers it as it is.
    func complete(_ id: MediaID, by owner: UserID) async throws -> Media {
        let upload = try await owned(id, by: owner)
        let at = now()
        let claimed = try await database.transaction { sql in
            try await store.claim(id, at: at, leaseUntil: at.addingTimeInterval(limits.processingLease), on: sql)
        }
        guard claimed else { return media(upload) }
        do {
            return try await process(upload)
        } catch let error as MediaError {
            if case .uploadMissing = error {
                try await database.transaction { sql in try await store.release(id, on: sql) }
            } else {
                try await database.transaction { sql in try await store.reject(id, at: now(), on: sql) }
                try? await objects.delete(upload.originalKey)
            }
            throw error
        }
    }

    /// An upload as its owner sees it; 404 for anyone else.
    func media(_ id: MediaID, viewer: UserID) async throws -> Media {
        media(try await owned(id, by: viewer))
    }

    /// How long after its URL expired an upload never completed is removed.
    static let abandonedAfter: TimeInterval = 86_400

    /// Removes the uploads never completed `abandonedAfter` past their URL's expiry, and what was sent to them.
    func sweepAbandoned() async {
        do {
            let cutoff = now().addingTimeInterval(-Self.abandonedAfter)
            let abandoned = try await database.read { sql in try await store.abandoned(before: cutoff, limit: 500, on: sql) }
            for upload in abandoned {
                try await objects.delete(upload.originalKey)
                try await database.transaction { sql in try await store.delete(upload.id, on: sql) }
            }
            if !abandoned.isEmpty { logger.info("removed \(abandoned.count) uploads never completed") }
        } catch {
            logger.warning("abandoned uploads not swept: \(error)")
        }
    }

    /// A public size's bytes by its file name (`<sha256>.jpg`), where media keeps the files itself.
    func publicFile(_ name: String) async throws -> Data? {
        guard name.count == 68, name.hasSuffix(".jpg"), name.dropLast(4).allSatisfy(\.isHexDigit) else { return nil }
        return try await objects.get("public/\(name)", limit: limits.maxBytes)
    }

    /// A private size's bytes, for whoever may see the upload (`mayRead`); 404 for anyone else.
    func privateVariant(_ id: MediaID, size: String, viewer: Identity) async throws -> Data {
        guard let upload = try await database.read({ sql in try await store.upload(id, on: sql) }),
            try await mayRead(upload, viewer: viewer),
            let variant = upload.variants.first(where: { $0.name == size }),
            let data = try await objects.get(variant.key, limit: limits.maxBytes)
        else { throw CommonError.missing(id) }
        return data
    }

    private func owned(_ id: MediaID, by owner: UserID) async throws -> Upload {
        guard let upload = try await database.read({ sql in try await store.upload(id, on: sql) }), upload.owner == owner else {
            throw CommonError.missing(id)
        }
        return upload
    }

    private func process(_ upload: Upload) async throws -> Media {
        guard let bytes = try await objects.get(upload.originalKey, limit: limits.maxBytes + 1) else { throw MediaError.uploadMissing }
        guard bytes.count <= limits.maxBytes else { throw MediaError.tooLarge(maxBytes: limits.maxBytes) }
        let declared = ImageFormat(rawValue: upload.contentType.rawValue) ?? .jpeg
        let processor = self.processor
        let made: (ImageHeader, [ImageVariant])
        do {
            // libvips blocks for as long as it works: never on an event loop.
            made = try await ComputePool.shared.runIfActive { try processor.variants(of: bytes, declared: declared) }
        } catch let refusal as ImageRefusal {
            throw MediaError.unsupported(refusal.explanation(maxPixels: processor.maxPixels))
        }
        var stored: [StoredVariant] = []
        for variant in made.1 {
            let key = Self.key(of: variant, upload: upload)
            try await objects.put(
                key, variant.data, contentType: "image/jpeg",
                cacheControl: upload.purpose.isPublic ? Self.publicCaching : Self.privateCaching)
            stored.append(
                StoredVariant(name: variant.name, key: key, width: variant.width, height: variant.height, bytes: variant.data.count))
        }
        let (width, height) = made.0.orientation >= 5 ? (made.0.height, made.0.width) : (made.0.width, made.0.height)
        let kept = stored
        try await database.transaction { sql in
            try await store.finish(upload.id, width: width, height: height, variants: kept, at: now(), on: sql)
            if upload.purpose.isPublic { try await store.recordPublicObjects(Set(kept.map(\.key)), of: upload.id, on: sql) }
        }
        do { try await objects.delete(upload.originalKey) } catch {
            // The original holds the GPS position the sizes were cleaned of: it must go; the sweep tries again.
            logger.warning("upload's original not deleted", metadata: ["media.id": "\(upload.id)", "error": "\(error)"])
        }
        var done = upload
        done.state = .ready
        done.width = width
        done.height = height
        done.variants = stored
        return media(done)
    }

    /// Public sizes by their content (`public/<sha256>.jpg`: the same picture is one object, and a
    /// URL never changes what it shows, so it is cached for a year); private ones under the upload.
    static func key(of variant: ImageVariant, upload: Upload) -> String {
        let digest = SHA256.hash(data: variant.data).map { String(format: "%02x", $0) }.joined()
        return upload.purpose.isPublic ? "public/\(digest).jpg" : "private/\(upload.id)/\(variant.name)-\(digest.prefix(16)).jpg"
    }

    func media(_ upload: Upload) -> Media {
        let status: MediaStatus =
            switch upload.state {
            case .awaiting, .processing: .processing
            case .ready: .ready
            case .rejected: .rejected
            }
        return Media(
            id: upload.id, purpose: upload.purpose, status: status, width: upload.width, height: upload.height,
            variants: variants(of: upload))
    }

    private func variants(of upload: Upload) -> MediaVariants? {
        func variant(_ name: String) -> MediaVariant? {
            guard let stored = upload.variants.first(where: { $0.name == name }) else { return nil }
            let url = upload.purpose.isPublic ? links.publicObject(stored.key) : links.privateVariant(upload.id, name)
            return MediaVariant(url: url, width: stored.width, height: stored.height, contentType: "image/jpeg")
        }
        guard let small = variant("small"), let medium = variant("medium"), let large = variant("large") else { return nil }
        return MediaVariants(small: small, medium: medium, large: large)
    }
}

extension ImageRefusal {
    func explanation(maxPixels: Int) -> String {
        switch self {
        case .notAnImage: "The upload is not a JPEG, PNG, HEIC or WebP image."
        case .notDeclaredFormat(let format): "The upload is a \(format.rawValue) image, not of the type declared."
        case .tooManyPixels(let pixels): "The image has \(pixels) pixels; at most \(maxPixels) are taken."
        case .unreadable: "The image could not be read."
        }
    }
}
