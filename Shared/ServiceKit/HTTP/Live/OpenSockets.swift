public import Contracts
public import Hummingbird
public import HummingbirdWebSocket
import Metrics
import NIOConcurrencyHelpers
public import NIOWebSocket

/// The live sockets an instance has open, so that when it begins to shut down it can tell every
/// device it is going away (1001), and the device resumes on another instance. swift-websocket
/// closes them on shutdown too, but with 1000, which says the socket is finished, not moved. A
/// socket opened with a session is closed with 1008 when that session ends (a sign-out elsewhere, a
/// suspension, a deleted account), as `RevocationPoller` learns of it.
///
/// An instance's sockets are found through a task-local that `StagedShutdown` sets around the
/// application, so one process running several modules (or tests running many stacks) keeps each
/// application's sockets apart. How many are open is the `live_sockets` gauge, by module.
public final class OpenSockets: Sendable {
    @TaskLocal static var current: OpenSockets?

    private struct Open {
        var next = 0
        var writers: [Int: (writer: any LiveSocketEnd, session: SessionID?)] = [:]
    }
    private let open = NIOLockedValueBox(Open())
    private let gauge: Meter
    /// The most sockets the instance holds (`<module>.sockets.max`); nil holds as many as come.
    public let cap: Int?

    public init(module: ServiceModule? = nil, cap: Int? = nil) {
        gauge = Meter(label: "live_sockets", dimensions: module.map { [("module", $0.rawValue)] } ?? [])
        self.cap = cap
    }

    public var count: Int { open.withLockedValue { $0.writers.count } }

    /// Refuses another socket when the instance holds its cap: a 503 with `Retry-After`, so the
    /// device connects again in a while (the autoscaler adding instances meanwhile) and the gateway
    /// may try another instance, instead of one instance taking sockets until it runs out of memory.
    static func admitAnother() throws {
        guard let sockets = current, let cap = sockets.cap, sockets.count >= cap else { return }
        throw CommonError.atCapacity(retryAfterSeconds: Self.retryAfterSeconds)
    }

    /// How long a device refused at the cap waits before it connects again.
    static let retryAfterSeconds = 5

    /// Makes these sockets known to every request the instance answers, a socket's upgrade among them:
    /// Hummingbird decides an upgrade in a task of its own, which does not inherit the server's
    /// task-local values, so the cap could not be found there otherwise.
    public var middleware: some RouterMiddleware<HuddleRequestContext> { Known(sockets: self) }

    private struct Known: RouterMiddleware {
        let sockets: OpenSockets
        func handle(
            _ request: Request, context: HuddleRequestContext, next: (Request, HuddleRequestContext) async throws -> Response
        ) async throws -> Response {
            try await OpenSockets.$current.withValue(sockets) { try await next(request, context) }
        }
    }

    /// Runs `body` with `writer` (of `session`'s device, when signed in) counted among the instance's
    /// open sockets, when there is an instance to count it.
    static func holding<T>(_ writer: any LiveSocketEnd, session: SessionID?, _ body: () async throws -> T) async rethrows -> T {
        guard let sockets = current else { return try await body() }
        let id = sockets.open.withLockedValue { open in
            open.next += 1
            open.writers[open.next] = (writer, session)
            return open.next
        }
        sockets.gauge.increment()
        defer {
            sockets.open.withLockedValue { _ = $0.writers.removeValue(forKey: id) }
            sockets.gauge.decrement()
        }
        return try await body()
    }

    /// Sends every open socket a close frame with 1001 (going away). Waits at most `patience` for the
    /// frames to be written: a device that stopped reading would hold the write for ever (its
    /// connection is reset later, `LiveSockets.serve`).
    /// Closes the sockets of `sessions` with 1008 (policy violation): the session they were opened
    /// with has ended, and the device must sign in again.
    public func close(sessions: Set<SessionID>) async {
        let ended = open.withLockedValue { open in
            open.writers.values.filter { $0.session.map(sessions.contains) ?? false }.map(\.writer)
        }
        for writer in ended { try? await writer.close(.policyViolation, reason: "session ended") }
    }

    public func closeAll(within patience: Duration) async {
        let writers = open.withLockedValue { $0.writers.values.map(\.writer) }
        guard !writers.isEmpty else { return }
        await withTaskGroup(of: Bool.self) { group in
            for writer in writers {
                group.addTask {
                    try? await writer.close(.goingAway, reason: "instance shutting down")
                    return true
                }
            }
            group.addTask {
                try? await Task.sleep(for: patience)
                return false
            }
            var closed = 0
            for await wasClose in group {
                guard wasClose else { break }
                closed += 1
                if closed == writers.count { break }
            }
            group.cancelAll()
        }
    }
}

/// The instance's end of a live socket, which it can close: the writer of a socket a module serves,
/// or a device's socket the gateway relays to a module (`SocketRelay`).
public protocol LiveSocketEnd: Sendable {
    func close(_ code: WebSocketErrorCode, reason: String?) async throws
}

extension WebSocketOutboundWriter: LiveSocketEnd {}
