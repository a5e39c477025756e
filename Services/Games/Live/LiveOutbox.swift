import Contracts
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import ServiceHTTP

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
/// A device that lets `limit` writes pile up unwritten is stopped as chat's are (`LiveWrites`); it
/// resumes with `afterVersion`.
final class LiveOutbox<Message: VersionedMessage>: Sendable {
    private struct State {
        /// The last version sent; changes up to it are not sent again.
        var sent: Int
        /// Changes delivered before the opening was sent, which follow it.
        var early: [LiveDelivery<Message>] = []
        var opened = false
        var writes: LiveWrites
        var ended = false
    }

    private let channel: any Channel
    private let cutOff: @Sendable () -> Void
    private let state: NIOLockedValueBox<State>

    /// `cutOff` resets the connection after a drain time unless it ended by then (`LiveSockets.cutOff`).
    init(channel: any Channel, sentThrough known: Int, limit: Int, cutOff: @escaping @Sendable () -> Void) {
        self.channel = channel
        self.cutOff = cutOff
        self.state = NIOLockedValueBox(State(sent: known, writes: LiveWrites(limit: limit)))
    }

    /// The last version sent to the device.
    var lastSent: Int { state.withLockedValue { $0.sent } }

    /// A change from the feed.
    func deliver(_ change: LiveDelivery<Message>) {
        state.withLockedValue { state in
            guard !state.ended else { return }
            guard state.opened else { return state.early.append(change) }
            guard change.version > state.sent else { return }
            state.sent = change.version
            write([change.text], state: &state)
        }
    }

    /// The opening, sent first, then the changes that came while it was read.
    func open(_ messages: [Message], sentThrough: Int) {
        state.withLockedValue { state in
            guard !state.ended else { return }
            state.sent = sentThrough
            var frames = messages.compactMap(Self.json)
            for change in state.early where change.version > state.sent {
                state.sent = change.version
                frames.append(change.text)
            }
            state.early = []
            state.opened = true
            if !frames.isEmpty { write(frames, state: &state) }
        }
    }

    /// An answer to what the device sent.
    func reply(_ message: Message) {
        guard let json = Self.json(message) else { return }
        state.withLockedValue { state in
            guard !state.ended else { return }
            write([json], state: &state)
        }
    }

    /// The feed ended (the service is stopping): ends the socket's reading, which ends the socket.
    func end() {
        state.withLockedValue { end(&$0) }
    }

    /// One hop to the connection's event loop for the frames, made under the lock, so hops run in the
    /// order the frames were posted; a device that cannot keep up is sent nothing more, gets the
    /// close if it still reads, and is cut off after the drain time if not.
    private func write(_ frames: [LiveText], state: inout State) {
        guard state.writes.hand(frames, to: channel, written: { self.state.withLockedValue { $0.writes.finished() } }) else {
            end(&state)
            return cutOff()
        }
    }

    /// Sends nothing more and ends the socket's reading: swift-websocket then closes it politely.
    private func end(_ state: inout State) {
        state.ended = true
        state.early = []
        channel.close(mode: .input, promise: nil)
    }

    /// Messages are plain Codable values: encoding one does not fail.
    private static func json(_ message: Message) -> LiveText? {
        (try? HuddleJSON.encoder.encode(message)).map { LiveText(ByteBuffer(bytes: $0)) }
    }
}
