public import Contracts
import Foundation

extension HuddleClient {
    /// The chat of `rooms`, live, on one socket: for each room, the messages after the seq given
    /// (none before it when the seq is nil), then every new message, edit and deletion. A dropped
    /// socket is reopened with backoff and each room resumes after the last message delivered, so
    /// nothing is missed or delivered twice. A room this user may no longer use arrives as an
    /// `error` frame with `NOT_FOUND` and is followed no more. The stream ends when the caller stops
    /// reading, or with a `HuddleError` when the session ended. Send with `send(ChatAPI.send, …)`:
    /// the same `clientMessageId` makes a retry safe.
    public func liveChat(_ rooms: [RoomID: Int?]) -> AsyncThrowingStream<ChatServerFrame, any Error> {
        Self.streaming { yield in try await self.followChat(rooms, deliver: yield) }
    }

    private func followChat(_ rooms: [RoomID: Int?], deliver: (ChatServerFrame) -> Void) async throws {
        // Per room followed: the last message seq delivered (nil: none yet, and no resume point asked).
        var following = rooms, failures = 0
        while !following.isEmpty {
            try Task.checkCancellation()
            do {
                let connection = try await connect(ChatAPI.live.operation, [], signedIn: true)
                try await withTaskCancellationHandler {
                    defer { Task { await connection.close() } }
                    for (room, seq) in following {
                        let frame = try HuddleJSON.encoder.encode(ChatClientFrame.subscribe(room, afterSeq: seq))
                        try await connection.send(String(decoding: frame, as: UTF8.self))
                    }
                    while let text = try await connection.receive() {
                        guard let frame = try? HuddleJSON.decoder.decode(ChatServerFrame.self, from: Data(text.utf8)) else { continue }
                        failures = 0
                        switch frame.type {
                        case .subscribed:
                            // Resume from here if the socket drops before a message arrives.
                            if let room = frame.roomId, following[room] == .some(nil) { following[room] = frame.lastSeq }
                            continue
                        case .message:
                            guard let message = frame.message, following[message.roomId] != nil else { continue }
                            guard message.seq > (following[message.roomId] ?? nil) ?? 0 else { continue }
                            following[message.roomId] = message.seq
                        case .error where frame.code == ProblemCode.notFound.code:
                            if let room = frame.roomId { following[room] = nil }
                        default:
                            break
                        }
                        deliver(frame)
                    }
                } onCancel: {
                    Task { await connection.close() }
                }
            } catch let error as HuddleError where error.kind != .unreachable {
                throw error
            } catch is TransportFailure {
                // Dropped or refused: try again below.
            }
            failures += 1
            try await Task.sleep(for: retry.delay(beforeRetry: min(failures, 6), retryAfter: nil))
        }
    }
}
