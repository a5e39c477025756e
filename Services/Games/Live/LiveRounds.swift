import Contracts
import Foundation
import Logging
import ServiceKit

/// Fans each round's changes out to the devices connected to it on this instance. A change is
/// announced by version (`changed`) — after its commit on this instance, or through PostgreSQL
/// NOTIFY from another — and read once per round from the change log, so every device gets every
/// version in order whichever instance wrote it.
actor LiveRounds {
    typealias Subscription = AsyncStream<LiveMessage>

    private struct Room {
        /// The last version handed to the subscribers.
        var delivered: Int
        /// The highest version announced.
        var announced: Int
        var reading = false
        var subscribers: [UUID: Subscription.Continuation] = [:]
    }

    private let readChanges: @Sendable (RoundID, Int) async throws -> [LiveMessage]
    private let logger: Logger
    private var rooms: [RoundID: Room] = [:]

    init(logger: Logger, readChanges: @escaping @Sendable (RoundID, _ after: Int) async throws -> [LiveMessage]) {
        self.readChanges = readChanges
        self.logger = logger
    }

    /// Starts delivering the round's changes after `version` (the card's version when the device
    /// connected; anything older it reads from the log itself).
    func subscribe(to round: RoundID, after version: Int) -> (id: UUID, messages: Subscription) {
        let (messages, continuation) = Subscription.makeStream()
        let id = UUID.random()
        if rooms[round] == nil { rooms[round] = Room(delivered: version, announced: version) }
        rooms[round]!.subscribers[id] = continuation
        return (id, messages)
    }

    func unsubscribe(_ id: UUID, from round: RoundID) {
        rooms[round]?.subscribers.removeValue(forKey: id)?.finish()
        if rooms[round]?.subscribers.isEmpty == true { rooms[round] = nil }
    }

    /// The round reached `version`. One reader per round reads what is new and delivers it; more
    /// announcements while it reads make it read again.
    func changed(_ round: RoundID, version: Int) async {
        guard rooms[round] != nil else { return }
        rooms[round]!.announced = max(rooms[round]!.announced, version)
        guard !rooms[round]!.reading else { return }
        rooms[round]!.reading = true
        defer { rooms[round]?.reading = false }
        while let room = rooms[round], room.announced > room.delivered {
            guard let changes = await read(round, after: room.delivered) else { return }
            guard let current = rooms[round] else { return }
            let fresh = changes.filter { $0.version > current.delivered }
            for message in fresh { for subscriber in current.subscribers.values { subscriber.yield(message) } }
            // Nothing newer in the log than announced yet (it cannot happen after a commit): stop
            // rather than spin; the next announcement reads again.
            guard let last = fresh.last?.version else { return }
            rooms[round]!.delivered = last
        }
    }

    /// The log after `version`; a failed read is tried again a few times (the change is committed,
    /// so it will be there), and nil only when the store stays unreachable.
    private func read(_ round: RoundID, after version: Int) async -> [LiveMessage]? {
        var wait = Duration.milliseconds(20)
        for attempt in 1...6 {
            do {
                return try await readChanges(round, version)
            } catch {
                logger.warning("cannot read changes of round \(round) (attempt \(attempt)): \(error)")
                try? await Task.sleep(for: wait)
                wait *= 3
            }
        }
        return nil
    }

    /// After the notification connection was lost: read every room again in case something was missed.
    func catchUpAll() async {
        for round in rooms.keys { await changed(round, version: Int.max) }
    }

    /// Ends every subscription (shutdown), so their sockets close.
    func closeAll() {
        for room in rooms.values { for subscriber in room.subscribers.values { subscriber.finish() } }
        rooms = [:]
    }
}
