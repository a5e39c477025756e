import Contracts
import SQLKit
import ServiceFeatures

/// How an upload's objects go once its row did (in the same transaction, so a store that cannot be
/// reached rolls the row back and the removal is tried again): the original, if still there, and each
/// size — but a public size another upload still names (the same picture uploaded twice) stays.
enum UploadRemoval {
    static func deleteObjects(of upload: Upload, store: any UploadStore, objects: any ObjectStore, on sql: any SQLDatabase) async throws {
        try await objects.delete(upload.originalKey)
        for variant in upload.variants {
            let shared = upload.purpose.isPublic ? try await store.isShared(variant.key, on: sql) : false
            if !shared { try await objects.delete(variant.key) }
        }
    }
}
