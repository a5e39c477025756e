import Contracts
public import Foundation
public import Logging
public import NIOCore

/// A message of a live socket, numbered by the version it brings.
public protocol VersionedMessage: Sendable, Encodable {
    var version: Int { get }
}

/// A change as every device receives it: its version, the message (for subscribers that choose what
/// to pass on), and its JSON in one buffer shared by all of them (encoding a 4 KB match per device
/// cost ~0.2 ms × devices per change; the shared buffer also saves each socket a copy of the text).
public struct LiveDelivery<Message: VersionedMessage>: Sendable {
    public let message: Message
    /// The JSON, with its frame made once for every socket (`LiveText.shared`).
    public let text: LiveText
    public var version: Int { message.version }

    public init(message: Message, json: ByteBuffer) {
        self.message = message
        self.text = .shared(json)
    }
}

/// Where a subscriber's changes go (a socket's outgoing queue), and how it is told the feed ended.
public struct LiveSubscriber<Message: VersionedMessage>: Sendable {
    let deliver: @Sendable (LiveDelivery<Message>) -> Void
    let end: @Sendable () -> Void

    public init(deliver: @escaping @Sendable (LiveDelivery<Message>) -> Void, end: @escaping @Sendable () -> Void) {
        self.deliver = deliver
        self.end = end
    }
}

/// Fans each subject's changes (a round's card, a match, a chat room) out to the devices connected
/// to it on this instance. A change is announced by version (`changed`) — after its commit on this instance, or
/// through PostgreSQL NOTIFY from another — and read once per subject from its change log, so every
/// device gets every version in order whichever instance wrote it.
public actor LiveFeed<Key: Hashable & Sendable & CustomStringConvertible, Message: VersionedMessage> {
    private struct Room {
        /// The last version handed to the subscribers.
        var delivered: Int
        /// The highest version announced.
        var announced: Int
        var reading = false
        var subscribers: [UUID: LiveSubscriber<Message>] = [:]
    }

    private let readChanges: @Sendable (Key, Int) async throws -> [Message]
    private let logger: Logger
    private var rooms: [Key: Room] = [:]

    public init(logger: Logger, readChanges: @escaping @Sendable (Key, _ after: Int) async throws -> [Message]) {
        self.readChanges = readChanges
        self.logger = logger
    }

    /// Starts delivering the subject's changes after `version` (its version when the device
    /// connected; anything older it reads from the log itself).
    public func subscribe(_ subscriber: LiveSubscriber<Message>, to subject: Key, after version: Int) -> UUID {
        let id = UUID.random()
        if rooms[subject] == nil { rooms[subject] = Room(delivered: version, announced: version) }
        rooms[subject]!.subscribers[id] = subscriber
        return id
    }

    public func unsubscribe(_ id: UUID, from subject: Key) {
        rooms[subject]?.subscribers.removeValue(forKey: id)?.end()
        if rooms[subject]?.subscribers.isEmpty == true { rooms[subject] = nil }
    }

    /// The subject reached `version`. One reader per subject reads what is new and delivers it; more
    /// announcements while it reads make it read again. The reader is a task of the feed's own, so
    /// it never ends with whichever request or socket announced the change.
    public func changed(_ subject: Key, version: Int) {
        guard rooms[subject] != nil else { return }
        rooms[subject]!.announced = max(rooms[subject]!.announced, version)
        guard !rooms[subject]!.reading else { return }
        rooms[subject]!.reading = true
        Task { await self.drain(subject) }
    }

    private func drain(_ subject: Key) async {
        defer { rooms[subject]?.reading = false }
        while let room = rooms[subject], room.announced > room.delivered {
            guard let changes = await read(subject, after: room.delivered) else {
                // The store stayed unreachable: try again a little later rather than leave the
                // announced versions undelivered until the next change.
                retryLater(subject)
                return
            }
            guard let current = rooms[subject] else { return }
            let fresh = changes.filter { $0.version > current.delivered }
            for message in fresh {
                guard let json = try? HuddleJSON.encoder.encode(message) else { continue }
                let delivery = LiveDelivery(message: message, json: ByteBuffer(bytes: json))
                for subscriber in current.subscribers.values { subscriber.deliver(delivery) }
            }
            // Nothing newer in the log than announced yet (after a reconnect every room is read in
            // case something was missed): stop rather than spin; the next announcement reads again.
            guard let last = fresh.last?.version else { return }
            rooms[subject]!.delivered = last
        }
    }

    private func retryLater(_ subject: Key) {
        Task {
            try? await Task.sleep(for: .milliseconds(500))
            await self.changed(subject, version: 0)
        }
    }

    /// The log after `version`; a failed read is tried again a few times (the change is committed,
    /// so it will be there), and nil only when the store stays unreachable.
    private func read(_ subject: Key, after version: Int) async -> [Message]? {
        var wait = Duration.milliseconds(20)
        for attempt in 1...6 {
            do {
                return try await readChanges(subject, version)
            } catch {
                logger.warning("cannot read changes of subject \(subject) (attempt \(attempt)): \(error)")
                try? await Task.sleep(for: wait)
                wait *= 3
            }
        }
        return nil
    }

    /// After the notification connection was lost: read every room again in case something was missed.
    public func catchUpAll() {
        for subject in rooms.keys { changed(subject, version: Int.max) }
    }

    /// Ends every subscription (shutdown), so their sockets close.
    public func closeAll() {
        for room in rooms.values { for subscriber in room.subscribers.values { subscriber.end() } }
        rooms = [:]
    }
}
