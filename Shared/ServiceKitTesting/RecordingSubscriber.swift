public import Contracts
import HuddleEffects
import Hummingbird
import Logging
import NIOConcurrencyHelpers
public import ServerContracts
import ServiceHTTP
import ServiceStore

/// A subscriber built like a real one: `/internal/events` feeding an `EventConsumer` with its own inbox.
public struct RecordingSubscriber: Sendable {
    public let url: String
    let applied: NIOLockedValueBox<[EventEnvelope]>

    /// `module`: the consumer it stands in for, whose credential checks its publishers' calls.
    public static func with<T>(standingIn module: ServiceModule = .search, _ body: (RecordingSubscriber) async throws -> T) async throws
        -> T
    {
        let database = try await Database.open(url: "sqlite::memory:", now: Effects.system.now, logger: Logger(label: "subscriber"))
        try await database.migrate([.inbox(version: 1)], logger: Logger(label: "subscriber"))
        let applied = NIOLockedValueBox<[EventEnvelope]>([])
        let consumer = EventConsumer(database: database) { event, _ in applied.withLockedValue { $0.append(event) } }
        let router = Router(context: HuddleRequestContext.self)
        router.add(
            middleware: InternalCallerMiddleware(
                verifier: InternalCallVerifier(module: module, publicKeys: TestStack.internalKeys.publicKeys, now: Effects.system.now)))
        router.on(EventsAPI.deliver(to: module)) { batch, _, _ in
            try await consumer.apply(batch.events)
            return NoContent()
        }
        return try await withServerOnPort0({ onListening in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) }, logger: Logger(label: "subscriber"))
        }) { url in try await body(RecordingSubscriber(url: url, applied: applied)) }
    }

    public var events: [EventEnvelope] { applied.withLockedValue { $0 } }

    public func waitFor(count: Int) async throws {
        _ = try await eventually { events.count >= count }
    }
}
