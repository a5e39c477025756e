import Contracts
public import Foundation
import SQLKit

/// Which instance of a service polls a provider: the holder renews its lease on every tick, and
/// another instance takes over once a lease has lapsed, so a deployment asks the provider once
/// however many replicas it runs (and stays within the provider's allowance). The table is
/// `feed_leases` (`Migration.feedLeases`).
public struct FeedLease: Sendable {
    let database: Database
    let name: String
    /// This instance.
    let holder = UUID.random().uuidString.lowercased()
    let duration: TimeInterval

    /// How often a poller that wants the lease asks for it (the holder renewing it), and how long a
    /// lease it took lasts: an instance that dies is replaced within `takeover`.
    public static let heartbeat: Duration = .seconds(3)
    public static let takeover: TimeInterval = 10

    public init(database: Database, name: String, duration: TimeInterval) {
        self.database = database
        self.name = name
        self.duration = duration
    }

    /// Takes or renews the lease; false while another instance holds it.
    public func acquire(at now: Date) async throws -> Bool {
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

extension Migration {
    /// `feed_leases`: which instance polls which provider, until when.
    public static func feedLeases(version: Int) -> Migration {
        Migration(version: version, name: "feed leases") { kind in
            ["CREATE TABLE feed_leases (name TEXT PRIMARY KEY, holder TEXT NOT NULL, expires_at \(kind.timestamp) NOT NULL)"]
        }
    }
}
