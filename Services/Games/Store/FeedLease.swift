import Contracts
import Foundation
import SQLKit
import ServiceKit

/// Which instance of games polls a provider: the holder renews its lease on every tick, and another
/// instance takes over once a lease has lapsed, so a deployment asks the provider once however many
/// replicas it runs (and stays within the provider's allowance).
struct FeedLease: Sendable {
    let database: Database
    let name: String
    /// This instance.
    let holder = UUID.random().uuidString.lowercased()
    let duration: TimeInterval

    /// Takes or renews the lease; false while another instance holds it.
    func acquire(at now: Date) async throws -> Bool {
        try await database.transaction { sql in
            try await sql.insert(into: "feed_leases").columns("name", "holder", "expires_at")
                .values(SQLBind(name), SQLBind(holder), SQLBind(now.addingTimeInterval(duration))).ignoringConflicts(with: ["name"]).run()
            guard
                let row = try await sql.select().columns("holder", "expires_at").from("feed_leases").where("name", .equal, SQLBind(name))
                    .for(.update).first()
            else { return false }
            let current = try row.decode(column: "holder", as: String.self)
            let expiresAt = try row.decode(column: "expires_at", as: Date.self)
            guard current == holder || expiresAt < now else { return false }
            try await sql.update("feed_leases").set("holder", to: SQLBind(holder)).set(
                "expires_at", to: SQLBind(now.addingTimeInterval(duration))
            )
            .where("name", .equal, SQLBind(name)).run()
            return true
        }
    }
}
