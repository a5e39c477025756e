import Contracts
import SQLKit
import ServerContracts
import ServiceFeatures

/// How an upload's objects go once its row did (in the same transaction, so a store that cannot be
/// reached rolls the row back and the removal is tried again): the original, if still there, and each
/// size — but a public size another upload still names (the same picture uploaded twice) stays.
enum UploadRemoval {
    /// The upload goes, with its objects, when it is attached to `subject`; otherwise nothing happens.
    static func release(
        _ id: MediaID, from subject: MediaSubject, store: any UploadStore, objects: any ObjectStore, on sql: any SQLDatabase
    ) async throws {
        guard let upload = try await store.lockedUpload(id, on: sql), upload.attachedTo == subject else { return }
        try await store.delete(id, on: sql)
        try await deleteObjects(of: upload, store: store, objects: objects, on: sql)
    }

    static func deleteObjects(of upload: Upload, store: any UploadStore, objects: any ObjectStore, on sql: any SQLDatabase) async throws {
        try await objects.delete(upload.originalKey)
        for variant in upload.variants {
            let shared = upload.purpose.isPublic ? try await store.isShared(variant.key, on: sql) : false
            if !shared { try await objects.delete(variant.key) }
        }
    }
}
