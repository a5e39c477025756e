import Contracts
import Foundation
import ServiceHTTP
import ServiceStore

/// Flood control per user and room: over the limit, a send is refused with the seconds to wait.
/// The buckets are in the store, so the limit holds whichever instance each message reaches. A
/// bucket is taken in a short transaction of its own before the send's: inside the send's
/// transaction, concurrent repeats of one `clientMessageId` queued behind each other's bucket row.
struct FloodControl: Sendable {
    let capacity: Int
    let interval: TimeInterval
    let database: Database
    let store: any FloodStore
    let now: @Sendable () -> Date
    /// How a refused send describes this limit: `capacity` messages per room, refilled over `capacity × interval`.
    var policy: RateLimitPolicy {
        RateLimitPolicy(name: "chat-room", quota: capacity, windowSeconds: Int((Double(capacity) * interval).rounded(.up)))
    }

    /// Nil when `user` may send to `room` now (a token is taken); otherwise the whole seconds to wait (at least 1).
    func take(_ user: UserID, _ room: RoomID) async throws -> Int? {
        let at = now()
        let fresh = TokenBucket(capacity: Double(capacity), interval: interval, at: at)
        let wait = try await database.transaction { sql in
            var bucket = try await store.lockBucket(of: user, in: room, fresh: fresh, on: sql)
            let wait = bucket.take(at: at)
            if wait == nil { try await store.save(bucket, of: user, in: room, on: sql) }
            // Now and then, forget the buckets that have filled up again, so idle users cost nothing.
            if Int.random(in: 0..<512) == 0 {
                try await store.forget(untouchedSince: at.addingTimeInterval(-Double(capacity) * interval), on: sql)
            }
            return wait
        }
        return wait.map { max(1, Int($0.rounded(.up))) }
    }
}
