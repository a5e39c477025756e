public import Contracts
import Foundation

extension HuddleClient {
    /// A round's scorecard as it changes: the whole card first, then each change, each version once
    /// and in order. A dropped socket is reopened with backoff and resumes after the last version
    /// delivered (`afterVersion`), so nothing is missed or repeated. The stream ends after the
    /// `finished` message, when the caller stops reading, or with a `HuddleError` when the round
    /// cannot be read (404, 403) or the session ended.
    public func liveScorecard(_ round: RoundID) -> AsyncThrowingStream<LiveMessage, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await follow(round) { continuation.yield($0) }
                    continuation.finish()
                } catch is CancellationError {
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func follow(_ round: RoundID, deliver: (LiveMessage) -> Void) async throws {
        // Over HTTP first: a round this user cannot read is a typed error, not a socket that keeps failing.
        _ = try await send(GamesAPI.round, round)
        var delivered: Int? = nil, failures = 0
        while true {
            try Task.checkCancellation()
            do {
                let connection = try await connect(round, after: delivered)
                let finished = try await withTaskCancellationHandler {
                    defer { Task { await connection.close() } }
                    while let text = try await connection.receive() {
                        guard let message = try? HuddleJSON.decoder.decode(LiveMessage.self, from: Data(text.utf8)) else { continue }
                        // Errors answer this device's own writes; versions already delivered are skipped.
                        guard message.type != .error, message.version > (delivered ?? -1) || message.type == .finished else { continue }
                        deliver(message)
                        delivered = max(delivered ?? message.version, message.version)
                        failures = 0
                        if message.type == .finished { return true }
                    }
                    return false
                } onCancel: {
                    Task { await connection.close() }
                }
                if finished { return }
            } catch let error as HuddleError where error.kind != .unreachable {
                throw error
            } catch is TransportFailure {
                // Dropped or refused: try again below.
            }
            failures += 1
            try await Task.sleep(for: retry.delay(beforeRetry: min(failures, 6), retryAfter: nil))
        }
    }

    private func connect(_ round: RoundID, after version: Int?) async throws -> any LiveConnection {
        guard let token = try await sessions.accessToken(refresh: refresher) else { throw HuddleError(kind: .notSignedIn) }
        let http = try url(GamesAPI.liveRound.operation, [round.description], version.map { ["afterVersion": String($0)] } ?? [:])
        guard var components = URLComponents(url: http, resolvingAgainstBaseURL: false) else { throw HuddleError(kind: .unexpectedAnswer) }
        components.scheme = components.scheme == "https" ? "wss" : "ws"
        guard let url = components.url else { throw HuddleError(kind: .unexpectedAnswer) }
        return try await liveTransport.connect(to: url, headers: ["Authorization": "Bearer \(token)"])
    }
}
