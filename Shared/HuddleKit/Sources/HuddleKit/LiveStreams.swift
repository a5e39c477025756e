public import Contracts
import Foundation

extension HuddleClient {
    /// A round's scorecard as it changes: the whole card first, then each change, each version once
    /// and in order. A dropped socket is reopened with backoff and resumes after the last version
    /// delivered (`afterVersion`), so nothing is missed or repeated. The stream ends after the
    /// `finished` message, when the caller stops reading, or with a `HuddleError` when the round
    /// cannot be read (404, 403) or the session ended.
    public func liveScorecard(_ round: RoundID) -> AsyncThrowingStream<LiveMessage, any Error> {
        stream(
            LiveFeedRoute(
                operation: GamesAPI.liveRound.operation, id: round.description, signedIn: true,
                // Errors answer this device's own writes; the last message of a round carries its card again.
                accepts: { message, delivered in message.type != .error && (message.version > delivered || message.type == .finished) },
                isLast: { $0.type == .finished }),
            check: { [self] in _ = try await send(GamesAPI.round, round) })
    }

    /// A professional match as it changes: the match as it stands, then every new version once and in
    /// order, reconnecting and resuming like `liveScorecard`. No sign-in needed. The stream ends once
    /// the match is over (FT, AET, PEN, or called off: PST, CANC, ABD, AWD, WO), when the caller stops
    /// reading, or with a `HuddleError` for a match that does not exist.
    public func liveMatch(_ match: MatchID) -> AsyncThrowingStream<MatchChange, any Error> {
        stream(
            LiveFeedRoute(
                operation: GamesAPI.liveMatch.operation, id: match.description, signedIn: false,
                accepts: { change, delivered in change.version > delivered },
                isLast: { $0.match.status.isOver }),
            check: { [self] in _ = try await send(GamesAPI.match, match) })
    }

    /// Where a live stream connects and how its messages are read.
    struct LiveFeedRoute<Message: Decodable & Sendable>: Sendable {
        let operation: APIOperation
        let id: String
        let signedIn: Bool
        /// Whether to deliver a message, given the last version delivered (-1 before any).
        let accepts: @Sendable (Message, Int) -> Bool
        let isLast: @Sendable (Message) -> Bool
    }

    private func stream<Message: Decodable & Sendable & LiveVersioned>(
        _ route: LiveFeedRoute<Message>, check: @escaping @Sendable () async throws -> Void
    ) -> AsyncThrowingStream<Message, any Error> {
        Self.streaming { yield in
            // Over HTTP first: what this user cannot read is a typed error, not a socket that keeps failing.
            try await check()
            try await self.follow(route, deliver: yield)
        }
    }

    /// A stream fed by `produce` in a task of its own: it ends when `produce` returns or is
    /// cancelled (the consumer stopped reading), and throws what else `produce` throws.
    static func streaming<Element: Sendable>(
        _ produce: @escaping @Sendable (_ yield: @escaping @Sendable (Element) -> Void) async throws -> Void
    ) -> AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await produce { continuation.yield($0) }
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

    private func follow<Message: Decodable & Sendable & LiveVersioned>(
        _ route: LiveFeedRoute<Message>, deliver: (Message) -> Void
    ) async throws {
        var delivered: Int? = nil, failures = 0
        while true {
            try Task.checkCancellation()
            do {
                let connection = try await connect(route, after: delivered)
                let finished = try await withTaskCancellationHandler {
                    defer { Task { await connection.close() } }
                    while let text = try await connection.receive() {
                        guard let message = try? HuddleJSON.decoder.decode(Message.self, from: Data(text.utf8)),
                            route.accepts(message, delivered ?? -1)
                        else { continue }
                        deliver(message)
                        delivered = max(delivered ?? message.version, message.version)
                        failures = 0
                        if route.isLast(message) { return true }
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

    private func connect<Message>(_ route: LiveFeedRoute<Message>, after version: Int?) async throws -> any LiveConnection {
        try await connect(
            route.operation, [route.id], query: GamesAPI.afterVersion(version), signedIn: route.signedIn)
    }

    /// Opens the live socket of `operation` (its path filled with `values`), signed in if asked.
    func connect(_ operation: APIOperation, _ values: [String], query: QueryItems = QueryItems(), signedIn: Bool) async throws
        -> any LiveConnection
    {
        var headers: [String: String] = [:]
        if signedIn {
            guard let token = try await sessions.accessToken(refresh: refresher) else { throw HuddleError(kind: .notSignedIn) }
            headers["Authorization"] = "Bearer \(token)"
        }
        let http = try url(operation, values, query)
        guard var components = URLComponents(url: http, resolvingAgainstBaseURL: false) else { throw HuddleError(kind: .unexpectedAnswer) }
        components.scheme = components.scheme == "https" ? "wss" : "ws"
        guard let url = components.url else { throw HuddleError(kind: .unexpectedAnswer) }
        return try await liveTransport.connect(to: url, headers: headers)
    }
}

/// A live socket's message, numbered by the version it brings.
protocol LiveVersioned {
    var version: Int { get }
}

extension LiveMessage: LiveVersioned {}
extension MatchChange: LiveVersioned {}
