import Contracts
import Foundation
import SQLKit
import ServiceStore

/// Players' data exports: a row per request, pending until the worker that claimed it stores the
/// document, then kept until it expires.
protocol ExportStore: Sendable {
    /// Inserts `export` unless the player has a pending one; answers whether it did.
    func insertUnlessPending(_ export: DataExport, of user: UserID, on sql: any SQLDatabase) async throws -> Bool
    /// The owner's export still being gathered, if any.
    func pending(of user: UserID, on sql: any SQLDatabase) async throws -> DataExport?
    /// `id` if it is `user`'s and has not expired at `now`.
    func export(_ id: DataExportID, of user: UserID, now: Date, on sql: any SQLDatabase) async throws -> DataExport?
    /// Takes the oldest pending export nobody holds (or whose holder's claim ran out) until `until`;
    /// two workers never take one at once.
    func claimPending(now: Date, until: Date, on sql: any SQLDatabase) async throws -> (id: DataExportID, user: UserID)?
    func complete(_ id: DataExportID, document: Data, readyAt: Date, expiresAt: Date, on sql: any SQLDatabase) async throws
    /// Removes exports that expired before `now`; answers how many.
    func removeExpired(now: Date, on sql: any SQLDatabase) async throws -> Int
    /// Every export of `user`, for account deletion.
    func removeAll(of user: UserID, on sql: any SQLDatabase) async throws
}

struct SQLExportStore: ExportStore {
    private static let columns = ["id", "status", "requested_at", "ready_at", "expires_at", "document"]

    func insertUnlessPending(_ export: DataExport, of user: UserID, on sql: any SQLDatabase) async throws -> Bool {
        try await !sql.insert(into: "data_exports").columns("id", "user_id", "status", "requested_at")
            .values(SQLBind(export.id.description), SQLBind(user.description), SQLBind(export.status.rawValue), SQLBind(export.requestedAt))
            .ignoringConflicts().returning("id").all().isEmpty
    }

    func pending(of user: UserID, on sql: any SQLDatabase) async throws -> DataExport? {
        try await sql.select().columns(Self.columns).from("data_exports").where("user_id", .equal, SQLBind(user.description))
            .where("status", .equal, SQLBind(DataExportStatus.pending.rawValue)).orderBy("requested_at").first().map(Self.decode)
    }

    func export(_ id: DataExportID, of user: UserID, now: Date, on sql: any SQLDatabase) async throws -> DataExport? {
        try await sql.select().columns(Self.columns).from("data_exports").where("id", .equal, SQLBind(id.description))
            .where("user_id", .equal, SQLBind(user.description))
            .where { $0.where("expires_at", .is, SQLLiteral.null).orWhere("expires_at", .greaterThan, SQLBind(now)) }
            .first().map(Self.decode)
    }

    func claimPending(now: Date, until: Date, on sql: any SQLDatabase) async throws -> (id: DataExportID, user: UserID)? {
        let free = { (query: SQLPredicateGroupBuilder) in
            query.where("claimed_until", .is, SQLLiteral.null).orWhere("claimed_until", .lessThan, SQLBind(now))
        }
        guard
            let row = try await sql.select().columns("id", "user_id").from("data_exports")
                .where("status", .equal, SQLBind(DataExportStatus.pending.rawValue)).where(group: free).orderBy("requested_at").first()
        else { return nil }
        let id: DataExportID = try row.typedID("id")
        // Only one of two workers that read the same row updates it: the second finds it claimed.
        let claimed = try await sql.update("data_exports").set("claimed_until", to: SQLBind(until))
            .where("id", .equal, SQLBind(id.description)).where(group: free).returning("id").all()
        return claimed.isEmpty ? nil : (id, try row.typedID("user_id"))
    }

    func complete(_ id: DataExportID, document: Data, readyAt: Date, expiresAt: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("data_exports").set("status", to: SQLBind(DataExportStatus.ready.rawValue))
            .set("document", to: SQLBind(String(decoding: document, as: UTF8.self))).set("ready_at", to: SQLBind(readyAt))
            .set("expires_at", to: SQLBind(expiresAt)).set("claimed_until", to: SQLLiteral.null)
            .where("id", .equal, SQLBind(id.description)).run()
    }

    func removeExpired(now: Date, on sql: any SQLDatabase) async throws -> Int {
        try await sql.delete(from: "data_exports").where("expires_at", .lessThan, SQLBind(now)).returning("id").all().count
    }

    func removeAll(of user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "data_exports").where("user_id", .equal, SQLBind(user.description)).run()
    }

    private static func decode(_ row: any SQLRow) throws -> DataExport {
        let document = try row.decodeNil(column: "document") ? nil : try row.decode(column: "document", as: String.self)
        return DataExport(
            id: try row.typedID("id"),
            status: DataExportStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .pending,
            requestedAt: try row.decode(column: "requested_at", as: Date.self),
            readyAt: try row.decode(column: "ready_at", as: Date?.self), expiresAt: try row.decode(column: "expires_at", as: Date?.self),
            document: try document.map { try HuddleJSON.decoder.decode([String: PersonalData].self, from: Data($0.utf8)) })
    }
}
