import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceFeatures

/// The events media applies: auth's account deletions and chat's removed photos. Every upload of the
/// deleted player goes, and its objects with it (a public size another upload shares, being the same
/// picture, stays for that one); so do the photos of a deleted message. A store that cannot be
/// reached fails the step, and the event is delivered again.
struct MediaEvents: Sendable {
    let store: any UploadStore
    let objects: any ObjectStore

    typealias Step = @Sendable (MediaEvents, any SQLDatabase) async throws -> Void

    static let handlers = EventHandlers<Step> { on in
        on.on(AuthEvent.accountDeleted) { deleted, _ in { events, sql in try await events.erase(deleted.userId, on: sql) } }
        on.on(ChatEvent.photosRemoved) { removed, _ in
            { events, sql in
                for id in removed.mediaIds {
                    try await UploadRemoval.release(id, from: removed.subject, store: events.store, objects: events.objects, on: sql)
                }
            }
        }
    }

    func erase(_ user: UserID, on sql: any SQLDatabase) async throws {
        let uploads = try await store.uploads(of: user, on: sql)
        try await store.deleteUploads(of: user, on: sql)
        for upload in uploads { try await UploadRemoval.deleteObjects(of: upload, store: store, objects: objects, on: sql) }
    }
}
