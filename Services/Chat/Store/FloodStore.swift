import Contracts
import Foundation
import SQLKit
import ServiceHTTP

/// Each user's token bucket per room, kept in the store so that flood control holds whichever
/// instance a message reaches.
protocol FloodStore: Sendable {
    /// The bucket of `user` in `room`, held for the transaction (a full new one when there was none).
    func lockBucket(of user: UserID, in room: RoomID, fresh: TokenBucket, on sql: any SQLDatabase) async throws -> TokenBucket
    func save(_ bucket: TokenBucket, of user: UserID, in room: RoomID, on sql: any SQLDatabase) async throws
    /// Forgets buckets untouched since `cutoff`: they are full again, as a new one would be.
    func forget(untouchedSince cutoff: Date, on sql: any SQLDatabase) async throws
}

struct SQLFloodStore: FloodStore {
    func lockBucket(of user: UserID, in room: RoomID, fresh: TokenBucket, on sql: any SQLDatabase) async throws -> TokenBucket {
        // Insert first, then lock: two first messages at once queue on the same row instead of both
        // starting from a full bucket.
        try await sql.insert(into: "flood_buckets").columns("user_id", "room_id", "tokens", "updated_at")
            .values(SQLBind(user.description), SQLBind(room.description), SQLBind(fresh.tokens), SQLBind(fresh.updated))
            .ignoringConflicts(with: ["user_id", "room_id"]).run()
        guard
            let row = try await sql.select().columns("tokens", "updated_at").from("flood_buckets")
                .where("user_id", .equal, SQLBind(user.description)).where("room_id", .equal, SQLBind(room.description))
                .for(.update).first()
        else { return fresh }
        return TokenBucket(
            capacity: fresh.capacity, interval: fresh.interval, tokens: try row.decode(column: "tokens", as: Double.self),
            updated: try row.decode(column: "updated_at", as: Date.self))
    }

    func save(_ bucket: TokenBucket, of user: UserID, in room: RoomID, on sql: any SQLDatabase) async throws {
        try await sql.update("flood_buckets").set("tokens", to: SQLBind(bucket.tokens)).set("updated_at", to: SQLBind(bucket.updated))
            .where("user_id", .equal, SQLBind(user.description)).where("room_id", .equal, SQLBind(room.description)).run()
    }

    func forget(untouchedSince cutoff: Date, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "flood_buckets").where("updated_at", .lessThan, SQLBind(cutoff)).run()
    }
}
