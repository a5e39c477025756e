public import Configuration
import Contracts
import Crypto
import Foundation
import HuddleEffects
import ServerContracts
import ServiceFeatures
public import ServiceHTTP
import ServiceKit
public import ServiceLifecycle
import ServiceStore

extension ModuleBuilder {
    /// The module as `huddle` and its own executable (`media`) run it.
    public static let media = ModuleBuilder(
        .media, migrate: { try await migrateStore(.media, reader: $0, logger: $1, MediaMigrations.all) }
    ) {
        try await buildMediaService(reader: $0, dependencies: $1)
    }
}

/// Builds the media service: photos uploaded to object storage (through presigned URLs, or through
/// media itself in the all-in-one), refused unless they are images of the declared type, and made
/// into three sizes without their metadata (libvips). It takes auth's account deletions (list
/// `media` in `auth.events.subscribers`) and answers its part of a player's export.
///
/// Configuration keys: the skeleton's (`media.http.*`, `media.db.url`, `media.revocation.poll.ms`,
/// `media.events.*`, `internal.keys`, `media.internal.key`) and `MediaSettings`' (`media.max-bytes`,
/// `media.max-pixels`, `media.upload.ttl.ms`, `media.api.url`, `media.public.url`, `media.storage.dir`,
/// `media.s3.*`). The all-in-one's upload URLs are signed with a key derived from `media.internal.key`.
public func buildMediaService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some Service {
    let settings = try MediaSettings(reader: reader)
    var service = try await ServiceSkeleton(.media, reader: reader, dependencies: dependencies, migrations: MediaMigrations.all)
    let now = dependencies.effects.now
    let objects: any ObjectStore
    switch settings.storage {
    case .directory(let path):
        objects = try FileObjectStore(directory: URL(fileURLWithPath: path))
    case .s3(let bucket):
        let bucketStore = try await bucket.store(httpClient: dependencies.providerClient, now: now)
        if bucket.createBucket { try await bucketStore.allowPublicReads(under: "public/") }
        objects = bucketStore
    }
    let chat = InternalClient(.chat, dependencies: dependencies)
    let signingKey = HKDF<SHA256>.deriveKey(
        inputKeyMaterial: SymmetricKey(data: Data((dependencies.internalKeys.privateKeyText(of: .media) ?? "").utf8)),
        info: Data("media upload URLs".utf8), outputByteCount: 32)
    let uploads = Uploads(
        database: service.database, store: SQLUploadStore(), objects: objects, processor: try ImageProcessor(maxPixels: settings.maxPixels),
        limits: settings.limits,
        links: UploadLinks(
            api: { [directory = dependencies.directory, configured = settings.apiBase] in
                configured ?? directory.url(of: .gateway) ?? "http://127.0.0.1:\(ServiceModule.gateway.defaultPort)"
            }, publicBase: settings.publicBase, key: signingKey),
        roomMembers: RoomMembers { user, room in
            try await chat.call(ChatAPI.Internal.roomMember, path: [room, user]) != nil
        },
        logger: dependencies.logger, now: now)
    service.add(MediaController(uploads: uploads), MediaInternalController(uploads: uploads))
    service.addServices(AbandonedUploads(uploads: uploads, interval: settings.sweepInterval))
    service.exportPersonalData(MediaPersonalData.export)
    let events = MediaEvents(store: SQLUploadStore(), objects: objects)
    service.consumeEvents(
        MediaEvents.handlers,
        with: EventConsumer(database: service.database) { event, sql in try await MediaEvents.handlers.step(for: event)?(events, sql) })
    return try service.application()
}
