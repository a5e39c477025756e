import Contracts
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ServiceKit

/// What one device's live socket is sent, written straight to its connection: the opening (what it
/// missed, or the subject as it stands), then each change from the feed not yet sent, each version
/// once and in order, and the answers to what it sends. Whoever has something for the device posts
/// it here, and it is handed to the connection's event loop under one lock, so frames go out in the
/// order they were posted.
///
/// No writer task, no queue: a change reaches a socket in one hop, from the feed's delivery to the
/// event loop. With a queue drained by a writer task per socket (a task wake-up, then an awaited
/// write, per device), a change reached 10,000 devices of one match with p99 303 ms
/// (`huddle-bench live-match`); chat's sockets, written this way, kept 20,000 deliveries a second.
/// A device that lets `limit` writes pile up unwritten is disconnected; it resumes with `afterVersion`.
final class LiveOutbox<Message: VersionedMessage>: Sendable {
    private struct State {
        /// The last version sent; changes up to it are not sent again.
        var sent: Int
        /// Changes delivered before the opening was sent, which follow it.
        var early: [LiveDelivery<Message>] = []
        var opened = false
        var unwritten = 0
        var ended = false
    }

    private let channel: any Channel
    private let limit: Int
    private let state: NIOLockedValueBox<State>

    init(channel: any Channel, sentThrough known: Int, limit: Int) {
        self.channel = channel
        self.limit = limit
        self.state = NIOLockedValueBox(State(sent: known))
    }

    /// The last version sent to the device.
    var lastSent: Int { state.withLockedValue { $0.sent } }

    /// A change from the feed.
    func deliver(_ change: LiveDelivery<Message>) {
        let overflowed = state.withLockedValue { state in
            guard !state.ended else { return false }
            guard state.opened else {
                state.early.append(change)
                return false
            }
            guard change.version > state.sent else { return false }
            state.sent = change.version
            return !write([change.json], state: &state)
        }
        if overflowed { disconnect() }
    }

    /// The opening, sent first, then the changes that came while it was read.
    func open(_ messages: [Message], sentThrough: Int) {
        let overflowed = state.withLockedValue { state in
            guard !state.ended else { return false }
            state.sent = sentThrough
            var frames = messages.compactMap(Self.json)
            for change in state.early where change.version > state.sent {
                state.sent = change.version
                frames.append(change.json)
            }
            state.early = []
            state.opened = true
            return !frames.isEmpty && !write(frames, state: &state)
        }
        if overflowed { disconnect() }
    }

    /// An answer to what the device sent.
    func reply(_ message: Message) {
        guard let json = Self.json(message) else { return }
        let overflowed = state.withLockedValue { state in !state.ended && !write([json], state: &state) }
        if overflowed { disconnect() }
    }

    /// The feed ended (the service is stopping): ends the socket's reading, which ends the socket.
    func end() {
        state.withLockedValue { state in
            state.ended = true
            state.early = []
        }
        channel.close(mode: .input, promise: nil)
    }

    /// One hop to the connection's event loop for the frames; hops are made under the lock, so they
    /// run in the order the frames were posted. False when the device has let `limit` writes pile
    /// up: it is sent nothing more, and the caller disconnects it once the lock is released (closing
    /// fails the writes left, whose completions take the lock).
    private func write(_ frames: [ByteBuffer], state: inout State) -> Bool {
        state.unwritten += 1
        guard state.unwritten <= limit else {
            state.ended = true
            return false
        }
        channel.writeTextFrames(frames) { self.state.withLockedValue { $0.unwritten -= 1 } }
        return true
    }

    private func disconnect() { channel.close(promise: nil) }

    /// Messages are plain Codable values: encoding one does not fail.
    private static func json(_ message: Message) -> ByteBuffer? {
        (try? HuddleJSON.encoder.encode(message)).map { ByteBuffer(bytes: $0) }
    }
}
