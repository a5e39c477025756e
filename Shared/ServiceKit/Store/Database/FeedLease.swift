import Contracts
public import Foundation
import NIOConcurrencyHelpers
import SQLKit
import ServiceHTTP

/// Which instance of a service polls a provider: the holder renews its lease on every tick, and
/// another instance takes over once a lease has lapsed, so a deployment asks the provider once
/// however many replicas it runs (and stays within the provider's allowance). The table is
/// `feed_leases` (`Migration.feedLeases`).
public struct FeedLease: Sendable {
    let database: Database
    let name: String
    /// This instance.
    let holder = UUID.random().lowercasedString
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

extension FeedLease {
    /// Gives the lease up, if this instance holds it, so another takes it at its next ask instead of
    /// after it lapses (a shutdown).
    public func release() async throws {
        try await database.transaction { sql in
            try await sql.update("feed_leases").set("expires_at", to: SQLBind(Date(timeIntervalSince1970: 0)))
                .where("name", .equal, SQLBind(name)).where("holder", .equal, SQLBind(holder)).run()
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

/// A poll due every `interval`, made by whichever instance holds `lease`. Every instance asks for
/// the lease each `pause` (the holder renewing it), so another takes over within
/// `FeedLease.takeover` of the holder dying, and polls at once.
public struct LeasedPoll: Sendable {
    public let lease: FeedLease
    public let interval: Duration
    /// When this instance polls next; nil: at once, once it holds the lease.
    private let nextDue = NIOLockedValueBox<Date?>(nil)

    public init(lease: FeedLease, interval: Duration) {
        self.lease = lease
        self.interval = interval
    }

    /// How long to wait between asks.
    public var pause: Duration { min(FeedLease.heartbeat, interval) }

    /// Whether this instance polls now: it holds the lease (taken or renewed by this call) and its
    /// poll is due; if so, the next is due `interval` later.
    public func isDue(at now: Date) async throws -> Bool {
        guard try await lease.acquire(at: now) else {
            nextDue.withLockedValue { $0 = nil }
            return false
        }
        return nextDue.withLockedValue { next in
            guard next.map({ now >= $0 }) ?? true else { return false }
            next = now.addingTimeInterval(interval.seconds)
            return true
        }
    }

    /// No poll before `date` (the provider asked to wait).
    public func postpone(until date: Date) { nextDue.withLockedValue { $0 = max($0 ?? date, date) } }
}
