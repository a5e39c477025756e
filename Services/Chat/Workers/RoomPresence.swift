import Contracts
import Foundation
import Logging
import SQLKit
import ServiceHTTP
import ServiceLifecycle
import ServiceStore

/// This instance's sockets as the store records them, so that any instance deciding whom to push a
/// message to knows who follows the room live. Rows are written when a socket subscribes and removed
/// when it unsubscribes or closes; the instance renews them every `renewal`, each for three renewals,
/// so those of an instance killed without closing its sockets run out within that time.
///
/// A write that fails is logged, not passed on: the socket still works, and the worst that follows
/// is a push to a player who was reading the room, or none to one who just left it.
struct RoomPresence: Service {
    let database: Database
    let store: any PresenceStore
    let instance = UUID()
    let renewal: Duration
    let logger: Logger
    let now: @Sendable () -> Date

    private var lifetime: TimeInterval { 3 * renewal.seconds }

    func enter(_ socket: UUID, room: RoomID, user: UserID) async {
        await write("enter") { sql in
            try await store.enter(socket, room: room, user: user, instance: instance, until: now().addingTimeInterval(lifetime), on: sql)
        }
    }

    /// The socket left one room, or every room when `room` is nil (it closed).
    func leave(_ socket: UUID, room: RoomID?) async {
        await write("leave") { sql in try await store.leave(socket, room: room, on: sql) }
    }

    func run() async throws {
        await database.repeatUntilShutdown {
            await write("renew") { sql in
                let at = now()
                try await store.renew(instance, until: at.addingTimeInterval(lifetime), now: at, on: sql)
            }
            return renewal
        }
    }

    private func write(_ what: String, _ body: @Sendable @escaping (any SQLDatabase) async throws -> Void) async {
        do { try await database.transaction(body) } catch {
            if !Task.isCancelled { logger.warning("chat presence \(what): \(error)") }
        }
    }
}
