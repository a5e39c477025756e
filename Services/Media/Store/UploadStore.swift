import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// An upload as kept: who made it, for what, in which state, and the objects made of it.
struct Upload: Sendable, Equatable {
    enum State: String, Sendable {
        /// Waiting for its bytes and the app's "complete".
        case awaiting
        /// Claimed by an instance that is reading it and making its sizes.
        case processing
        case ready
        case rejected
    }

    var id: MediaID
    var owner: UserID
    var purpose: MediaPurpose
    var contentType: MediaContentType
    var byteSize: Int
    var state: State
    var createdAt: Date
    /// When the upload URL stops working (and, a day later, an upload never completed is removed).
    var expiresAt: Date
    var width: Int?
    var height: Int?
    var variants: [StoredVariant]
    /// What it is attached to (a profile, a team, a chat room), once attached.
    var attachedTo: MediaSubject? = nil

    /// Where the bytes the app sends are put, until they are made into variants.
    var originalKey: String { "uploads/\(id)" }
}

/// One size as kept: its object's key and its size.
struct StoredVariant: Codable, Sendable, Equatable {
    var name: String
    var key: String
    var width: Int
    var height: Int
    var bytes: Int
}

protocol UploadStore: Sendable {
    func insert(_ upload: Upload, on sql: any SQLDatabase) async throws
    func upload(_ id: MediaID, on sql: any SQLDatabase) async throws -> Upload?
    /// The upload, locked until the transaction ends (attaching one decides on what it finds).
    func lockedUpload(_ id: MediaID, on sql: any SQLDatabase) async throws -> Upload?
    func attach(_ id: MediaID, to subject: MediaSubject, on sql: any SQLDatabase) async throws
    /// Takes an awaiting upload (or one whose processing instance let its lease run out) for
    /// processing until `leaseUntil`; false when another instance has it or it is done.
    func claim(_ id: MediaID, at: Date, leaseUntil: Date, on sql: any SQLDatabase) async throws -> Bool
    func finish(_ id: MediaID, width: Int, height: Int, variants: [StoredVariant], at: Date, on sql: any SQLDatabase) async throws
    func reject(_ id: MediaID, at: Date, on sql: any SQLDatabase) async throws
    /// Gives a claimed upload back to waiting (its bytes had not arrived).
    func release(_ id: MediaID, on sql: any SQLDatabase) async throws
    func uploads(of owner: UserID, on sql: any SQLDatabase) async throws -> [Upload]
    /// Uploads still awaiting their bytes (or whose processing instance died) whose URL expired before `cutoff`.
    func abandoned(before cutoff: Date, limit: Int, on sql: any SQLDatabase) async throws -> [Upload]
    func delete(_ id: MediaID, on sql: any SQLDatabase) async throws
    func deleteUploads(of owner: UserID, on sql: any SQLDatabase) async throws
    /// Records that the upload names these public objects.
    func recordPublicObjects(_ keys: Set<String>, of id: MediaID, on sql: any SQLDatabase) async throws
    /// Whether an upload still kept names the public object `key` (the same picture uploaded twice).
    func isShared(_ key: String, on sql: any SQLDatabase) async throws -> Bool
}

struct SQLUploadStore: UploadStore {
    static let columns = [
        "id", "owner_id", "purpose", "content_type", "byte_size", "status", "created_at", "expires_at", "width", "height", "variants",
        "attached_to",
    ]

    func insert(_ upload: Upload, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "uploads")
            .columns("id", "owner_id", "purpose", "content_type", "byte_size", "status", "created_at", "expires_at")
            .values(
                SQLBind(upload.id.description), SQLBind(upload.owner.description), SQLBind(upload.purpose.rawValue),
                SQLBind(upload.contentType.rawValue), SQLBind(upload.byteSize), SQLBind(upload.state.rawValue), SQLBind(upload.createdAt),
                SQLBind(upload.expiresAt)
            )
            .run()
    }

    func upload(_ id: MediaID, on sql: any SQLDatabase) async throws -> Upload? {
        try await sql.select().columns(Self.columns).from("uploads").where("id", .equal, SQLBind(id.description)).first()
            .map(Self.decode)
    }

    func lockedUpload(_ id: MediaID, on sql: any SQLDatabase) async throws -> Upload? {
        try await sql.select().columns(Self.columns).from("uploads").where("id", .equal, SQLBind(id.description)).for(.update).first()
            .map(Self.decode)
    }

    func attach(_ id: MediaID, to subject: MediaSubject, on sql: any SQLDatabase) async throws {
        try await sql.update("uploads").set("attached_to", to: SQLBind(subject.description)).where("id", .equal, SQLBind(id.description))
            .run()
    }

    func claim(_ id: MediaID, at: Date, leaseUntil: Date, on sql: any SQLDatabase) async throws -> Bool {
        guard
            let row = try await sql.select().columns("status", "lease_until").from("uploads").where("id", .equal, SQLBind(id.description))
                .for(.update).first()
        else { return false }
        let state = Upload.State(rawValue: try row.decode(column: "status", as: String.self))
        let lease = try row.decode(column: "lease_until", as: Date?.self)
        guard state == .awaiting || (state == .processing && (lease ?? .distantPast) < at) else { return false }
        try await sql.update("uploads").set("status", to: SQLBind(Upload.State.processing.rawValue)).set(
            "lease_until", to: SQLBind(leaseUntil)
        )
        .where("id", .equal, SQLBind(id.description)).run()
        return true
    }

    func finish(_ id: MediaID, width: Int, height: Int, variants: [StoredVariant], at: Date, on sql: any SQLDatabase) async throws {
        let json = String(decoding: try JSONEncoder().encode(variants), as: UTF8.self)
        try await sql.update("uploads").set("status", to: SQLBind(Upload.State.ready.rawValue)).set("width", to: SQLBind(width))
            .set("height", to: SQLBind(height)).set("variants", to: SQLBind(json)).set("completed_at", to: SQLBind(at))
            .set("lease_until", to: SQLLiteral.null).where("id", .equal, SQLBind(id.description)).run()
    }

    func reject(_ id: MediaID, at: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("uploads").set("status", to: SQLBind(Upload.State.rejected.rawValue)).set("completed_at", to: SQLBind(at))
            .set("lease_until", to: SQLLiteral.null).where("id", .equal, SQLBind(id.description)).run()
    }

    func release(_ id: MediaID, on sql: any SQLDatabase) async throws {
        try await sql.update("uploads").set("status", to: SQLBind(Upload.State.awaiting.rawValue)).set("lease_until", to: SQLLiteral.null)
            .where("id", .equal, SQLBind(id.description)).run()
    }

    func uploads(of owner: UserID, on sql: any SQLDatabase) async throws -> [Upload] {
        try await sql.select().columns(Self.columns).from("uploads").where("owner_id", .equal, SQLBind(owner.description)).all()
            .map(Self.decode)
    }

    func abandoned(before cutoff: Date, limit: Int, on sql: any SQLDatabase) async throws -> [Upload] {
        try await sql.select().columns(Self.columns).from("uploads")
            .where(SQLIdentifier("status"), .in, SQLBind.group([Upload.State.awaiting.rawValue, Upload.State.processing.rawValue]))
            .where("expires_at", .lessThan, SQLBind(cutoff)).orderBy("expires_at").limit(limit).all().map(Self.decode)
    }

    func delete(_ id: MediaID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "public_objects").where("upload_id", .equal, SQLBind(id.description)).run()
        try await sql.delete(from: "uploads").where("id", .equal, SQLBind(id.description)).run()
    }

    func deleteUploads(of owner: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "public_objects")
            .where(
                SQLIdentifier("upload_id"), .in,
                SQLGroupExpression(sql.select().column("id").from("uploads").where("owner_id", .equal, SQLBind(owner.description)).select)
            ).run()
        try await sql.delete(from: "uploads").where("owner_id", .equal, SQLBind(owner.description)).run()
    }

    func recordPublicObjects(_ keys: Set<String>, of id: MediaID, on sql: any SQLDatabase) async throws {
        for key in keys.sorted() {
            try await sql.insert(into: "public_objects").columns("object_key", "upload_id").values(SQLBind(key), SQLBind(id.description))
                .ignoringConflicts(with: ["object_key", "upload_id"]).run()
        }
    }

    func isShared(_ key: String, on sql: any SQLDatabase) async throws -> Bool {
        try await sql.select().column("upload_id").from("public_objects").where("object_key", .equal, SQLBind(key)).limit(1).first() != nil
    }

    private static func decode(_ row: any SQLRow) throws -> Upload {
        let variants = try row.decode(column: "variants", as: String?.self).map {
            try JSONDecoder().decode([StoredVariant].self, from: Data($0.utf8))
        }
        return Upload(
            id: try row.typedID("id"), owner: try row.typedID("owner_id"),
            purpose: MediaPurpose(rawValue: try row.decode(column: "purpose", as: String.self)) ?? .avatar,
            contentType: MediaContentType(rawValue: try row.decode(column: "content_type", as: String.self)) ?? .jpeg,
            byteSize: try row.decode(column: "byte_size", as: Int.self),
            state: Upload.State(rawValue: try row.decode(column: "status", as: String.self)) ?? .rejected,
            createdAt: try row.decode(column: "created_at", as: Date.self), expiresAt: try row.decode(column: "expires_at", as: Date.self),
            width: try row.decode(column: "width", as: Int?.self), height: try row.decode(column: "height", as: Int?.self),
            variants: variants ?? [], attachedTo: try row.decode(column: "attached_to", as: String?.self).flatMap(MediaSubject.init))
    }
}
