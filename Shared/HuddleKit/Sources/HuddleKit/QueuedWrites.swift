public import Contracts
public import Foundation

/// Writes the player made without a connection, kept on the device across app restarts and sent in
/// the order they were made when the server can be reached again (`HuddleClient.sendQueuedWrites`).
/// Each is sent with what makes a repeat harmless — its own `Idempotency-Key`, made once and kept
/// with it, or the `clientMessageId` in a chat message, or a `PUT`'s "set this value" — so a write
/// whose answer was lost is sent again without doubling anything. Only writes that need no answer at
/// once are queued (`queueable`): scores and clears, roster answers, chat messages and read markers.
public actor QueuedWrites {
    /// The operations a queue takes; bets, purchases and deletions need the server's answer at once.
    public static let queueable: [String: APIOperation] = Dictionary(
        uniqueKeysWithValues: [
            GamesAPI.score.operation, GamesAPI.clearScore.operation, GamesAPI.setStatus.operation, ChatAPI.send.operation,
            ChatAPI.read.operation,
        ].map { ($0.name, $0) })

    public let file: URL?
    private var writes: [QueuedWrite] = []
    private var loaded = false
    private var sending = false

    /// `file`: where the queue is kept (the app's Application Support directory, say); nil keeps it in
    /// memory only, lost with the app.
    public init(file: URL? = nil) { self.file = file }

    /// The writes not yet answered, oldest first.
    public var pending: [QueuedWrite] {
        load()
        return writes
    }

    /// Forgets every queued write (on sign-out, after trying to send them, and on account deletion).
    public func clear() {
        writes = []
        loaded = true
        save()
    }

    func append(_ write: QueuedWrite) {
        load()
        writes.append(write)
        save()
    }

    func remove(_ id: UUID) {
        writes.removeAll { $0.id == id }
        save()
    }

    /// One sender at a time, so writes go out in order.
    func startSending() -> Bool {
        guard !sending else { return false }
        sending = true
        return true
    }

    func stopSending() { sending = false }

    private func load() {
        guard !loaded else { return }
        loaded = true
        guard let file, let data = try? Data(contentsOf: file) else { return }
        writes = (try? JSONDecoder().decode([QueuedWrite].self, from: data)) ?? []
    }

    private func save() {
        guard let file, let data = try? JSONEncoder().encode(writes) else { return }
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
    }
}

/// One write waiting in `QueuedWrites`.
public struct QueuedWrite: Codable, Sendable, Identifiable, Equatable {
    public let id: UUID
    /// The operation's name, `PUT /v1/rounds/{id}/scores`.
    public let operation: String
    public let path: [String]
    public let body: Data?
    /// Sent with each attempt, where the operation takes one.
    public let idempotencyKey: String?
    public let queuedAt: Date
}

/// What became of a queued write once the server answered it.
public enum QueuedWriteOutcome: Sendable {
    /// Done; `answer` is the server's body (the card after a score, the message as stored).
    case sent(QueuedWrite, answer: Data)
    /// Refused for good (the round was finished, the room left): taken out of the queue, not retried.
    case refused(QueuedWrite, HuddleError)
}
