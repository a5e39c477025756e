public import Configuration
public import Contracts
import HuddleEffects
public import Hummingbird
public import HummingbirdCore
import JWTKit
public import Logging
public import ServerContracts
public import ServiceFeatures
public import ServiceHTTP
public import ServiceLifecycle
public import ServiceStore

/// What every service is built on, set up once: its store (`<module>.db.url`, at most `<module>.db.pool`
/// PostgreSQL connections, default 20, of which `<module>.db.pool.open`, default 4, stay open) and migrations, token
/// verification with the revocation poll (`<module>.revocation.poll.ms`), the router with request
/// ids, metrics, problem+json, `/health`, `/metrics`, the callers' credentials on internal routes and
/// idempotent writes where its operations accept `Idempotency-Key` (a key whose request never
/// finished is released after `<module>.idempotency.pending.ms`, default 30000). A service's builder then adds only its domain:
/// controllers, the events it publishes and consumes, its own background services.
///
/// `application()` refuses to start a service that registered a route no description names, or
/// left a described operation of its module without a handler, and answers a wrong method on a
/// known path with 405.
public struct ServiceSkeleton {
    public let module: ServiceModule
    public let database: Database
    public let verifier: TokenVerifier
    public let router: Router<HuddleRequestContext>
    public let dependencies: ServiceDependencies
    public var logger: Logger { dependencies.logger }
    private let reader: ConfigReader
    private let readiness = Readiness()
    private var services: [any Service]
    private var startup: [@Sendable () async throws -> Void] = []
    /// The kinds of event this module's handlers take, by name, with their publishers.
    private var consumedKinds: [String: ServiceModule] = [:]
    private var publishes = false
    /// What this module keeps only for a while (`Retention`).
    private var retained: [RetentionRule] = []
    /// The live sockets the instance holds, and the most it takes.
    private let sockets: OpenSockets

    /// `keys`: where access tokens are verified from; every module but auth asks auth (`AuthKeys`).
    public init(
        _ module: ServiceModule, reader: ConfigReader, dependencies: ServiceDependencies, migrations: [Migration],
        keys: ((Database) -> any AccessKeySource)? = nil
    ) async throws {
        self.module = module
        self.reader = reader
        self.dependencies = dependencies
        let logger = dependencies.logger
        database = try await Database.open(
            url: reader.databaseURL(for: module), now: dependencies.effects.now, logger: logger,
            maxConnections: reader.integer("\(module.rawValue).db.pool", default: 20),
            keptOpen: reader.integer("\(module.rawValue).db.pool.open", default: 4),
            prepared: reader.text("\(module.rawValue).db.prepared", default: "true") != "false")
        verifier = TokenVerifier(source: keys?(database) ?? AuthKeys(dependencies: dependencies), now: dependencies.effects.now)
        router = Router<HuddleRequestContext>.huddle(
            module: module, verifier: verifier, dependencies: dependencies, healthChecks: ["database": database.healthCheck],
            readiness: readiness)
        sockets = OpenSockets(module: module, cap: reader.socketCap(for: module))
        router.add(middleware: sockets.middleware)
        // Operations that require a key keep it themselves, in the transaction of their effect.
        if API.operations(of: module).contains(where: { $0.acceptsIdempotencyKey && !$0.requiresIdempotencyKey }) {
            retained.append(.idempotencyKeys)
            router.add(
                middleware: IdempotencyMiddleware(
                    database: database, pendingLifetime: reader.milliseconds("\(module.rawValue).idempotency.pending.ms", default: 30_000)))
        }
        services = [
            database,
            RevocationPoller(
                verifier: verifier, interval: reader.milliseconds("\(module.rawValue).revocation.poll.ms", default: 500), logger: logger),
        ]
        let database = database
        if try reader.migratesAtStart(module) {
            startup.append { try await database.migrate(migrations, logger: logger) }
        } else {
            startup.append { try await database.waitForMigrations(migrations, logger: logger) }
        }
    }

    public func add(_ controllers: any Controller...) {
        for controller in controllers { controller.register(on: router) }
    }

    /// Delivers this module's outbox to `<module>.events.subscribers` (see `OutboxDispatcher.Settings`),
    /// and answers its operator's `GET /internal/events/dead-letters` and their replays.
    public mutating func publishEvents() throws {
        publishes = true
        let dispatcher = OutboxDispatcher(
            database: database, transport: EventsClient(dependencies: dependencies), settings: try .init(reader: reader, module: module),
            logger: logger)
        services.append(dispatcher)
        retained.append(.deadLetters)
        router.on(EventsAPI.deadLetters(of: module)) { _, _ in try await dispatcher.parked() }
        router.on(EventsAPI.replay(of: module)) { _, context in
            try await dispatcher.replay(try context.parameters.id(EventID.self))
            return NoContent()
        }
    }

    /// Applies other modules' events sent to this module's `POST /internal/events`, once each.
    /// `handlers` names the kinds taken: `application()` refuses to start when `Wiring` would not
    /// deliver them all, or would deliver from a publisher none of whose kinds is taken.
    public mutating func consumeEvents<Step>(_ handlers: EventHandlers<Step>, with consumer: EventConsumer) {
        consumedKinds.merge(handlers.kinds) { first, _ in first }
        if !retained.contains(where: { $0.name == RetentionRule.inbox.name }) { retained.append(.inbox) }
        let module = module
        let kinds = consumedKinds
        let erasure = outboxErasure(taking: handlers.kinds)
        let database = database
        router.on(EventsAPI.deliver(to: module)) { batch, _, context in
            // A module publishes only its own events: one that speaks for another is refused whole.
            if let stranger = batch.events.first(where: { Self.publisher(of: $0, kinds: kinds) != context.internalCaller }) {
                context.logger.warning(
                    "refused events from \(context.internalCaller?.rawValue ?? "no module"): \(stranger.type) is not its to publish")
                throw CommonError.forbidden("\(stranger.type) is not published by \(context.internalCaller?.rawValue ?? "the caller").")
            }
            try await EventTracing.consuming(batch.events, by: module) { _ = try await consumer.apply(batch.events) }
            // After the handlers erased the player: a repeat of the batch, which the inbox drops,
            // still comes here, so a failure is made good by auth's redelivery.
            if let erasure {
                let deleted = try batch.events.filter(AuthEvent.accountDeleted.matches).map {
                    try AuthEvent.accountDeleted.payload(of: $0).userId
                }
                for player in deleted { try await database.transaction { sql in try await erasure.forget(player, on: sql) } }
            }
            return NoContent()
        }
        router.on(EventsAPI.applied(by: module)) { _, context in
            try await Inbox(now: database.now).applied(try context.parameters.id(EventID.self), from: database)
        }
    }

    /// How this module's outbox forgets a deleted player (auth, which deletes accounts, does it in
    /// the deletion; the others when their handlers have taken it).
    public var outboxErasure: OutboxErasure {
        let subscribers = (try? OutboxDispatcher.Settings(reader: reader, module: module))?.subscribers ?? []
        return OutboxErasure(now: database.now, subscribers: subscribers)
    }

    /// The erasure a publisher whose handlers take account deletions runs after them.
    private func outboxErasure(taking kinds: [String: ServiceModule]) -> OutboxErasure? {
        guard Wiring.eventConsumers[module] != nil, kinds[AuthEvent.accountDeleted.name] != nil else { return nil }
        return outboxErasure
    }

    /// Who publishes `event`: the owner of its kind, or for a kind this module does not take, the
    /// module its dotted name begins with (`games.game.created`).
    static func publisher(of event: EventEnvelope, kinds: [String: ServiceModule]) -> ServiceModule? {
        kinds[event.type] ?? event.type.split(separator: ".", maxSplits: 1).first.flatMap { ServiceModule(rawValue: String($0)) }
    }

    /// Answers `GET /internal/users/{id}/personal-data` with `export`'s sections, for players' exports.
    public func exportPersonalData(_ export: PersonalDataExport) {
        let database = database
        router.on(PersonalDataAPI.export(of: module)) { _, context in
            try await export.gather(for: try context.parameters.id(UserID.self), from: database)
        }
    }

    public mutating func addServices(_ more: any Service...) { services += more }

    /// Rows of this module's own tables kept only for a while, besides its inbox, idempotency keys
    /// and dead letters, which the skeleton keeps for it.
    public mutating func retain(_ rules: RetentionRule...) { retained += rules }

    /// Work before the server listens, after the migrations.
    public mutating func beforeServerStarts(_ work: @escaping @Sendable () async throws -> Void) { startup.append(work) }

    /// The service's application, shut down in stages (`StagedShutdown`); `server` for one that also
    /// upgrades WebSockets.
    public func application(server: HTTPServerBuilder = .http1WithoutUpgrades()) throws -> some Service {
        let (undescribed, unhandled) = router.undescribedRoutes(of: module)
        guard undescribed.isEmpty, unhandled.isEmpty else {
            throw WiringMistake(module, "routes without a description: \(undescribed); descriptions without a handler: \(unhandled)")
        }
        let publishers = Set(consumedKinds.values)
        let wired = Set(Wiring.eventConsumers.filter { $0.value.contains(module) }.keys)
        guard publishers == wired else {
            throw WiringMistake(
                module,
                "its handlers take events of \(publishers.map(\.rawValue).sorted()), Wiring.eventConsumers delivers from "
                    + "\(wired.map(\.rawValue).sorted())")
        }
        // A publisher in the wiring whose outbox nobody sends would keep its events for ever.
        guard publishes == (Wiring.eventConsumers[module] != nil) else {
            throw WiringMistake(
                module,
                publishes
                    ? "it publishes events, but Wiring.eventConsumers names no subscriber"
                    : "Wiring.eventConsumers delivers its events, but it does not publish them (publishEvents)")
        }
        router.answerWrongMethods()
        var app = Application(
            responder: router.huddleResponder(), server: server, configuration: reader.serverConfiguration(for: module),
            onServerRunning: dependencies.announce(module), logger: logger)
        var services = services
        if !retained.isEmpty {
            services.append(Retention(database: database, rules: retained, reader: reader, module: module, logger: logger))
        }
        app.addServices(services.map { dependencies.running.tracking($0, as: "\(module.rawValue): \(type(of: $0))", logger: logger) })
        let startup = startup
        app.beforeServerStarts { for work in startup { try await work() } }
        return StagedShutdown(app, readiness: readiness, sockets: sockets, logger: logger)
    }
}
