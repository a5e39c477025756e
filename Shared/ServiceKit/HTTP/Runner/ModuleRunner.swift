public import AsyncHTTPClient
public import Configuration
public import Contracts
import Foundation
public import HuddleEffects
public import Logging
import NIOCore
import Prometheus
public import ServiceLifecycle
public import UnixSignals

/// Builds one module's application. The executables register one per module they can run.
public struct ModuleBuilder: Sendable {
    public let module: ServiceModule
    public let build: @Sendable (ConfigReader, ServiceDependencies) async throws -> any Service
    /// Applies the module's migrations to its store and returns (`<module> --migrate`); nil for a
    /// module without a store.
    public let migrate: (@Sendable (ConfigReader, Logger) async throws -> Void)?

    public init(
        _ module: ServiceModule, migrate: (@Sendable (ConfigReader, Logger) async throws -> Void)? = nil,
        build: @escaping @Sendable (ConfigReader, ServiceDependencies) async throws -> any Service
    ) {
        self.module = module
        self.migrate = migrate
        self.build = build
    }
}

/// Runs a set of modules in one process, each on its own port, talking over real HTTP.
///
/// Modules find each other through the `ServiceDirectory`: configured URLs first, then the port
/// each module reports once listening (so tests can use port 0 everywhere).
public final class ModuleRunner: Sendable {
    public let directory: ServiceDirectory
    public let dependencies: ServiceDependencies
    private let listening = ListeningModules()
    private let httpClient: HTTPClient
    private let providerClient: HTTPClient
    /// Connections opened to one module's address before a call waits for one to come free. The
    /// called module's database pool bounds its work; this only keeps a burst from queueing here.
    static let connectionsPerModule = 256
    /// How long stopping may wait for connections and requests to finish before they are cancelled.
    private let shutdownGrace: Duration

    /// Keys: `internal.keys` and `<module>.internal.key` for each module run that calls others
    /// (`InternalKeys`; required unless `internalKeys` is given), `<module>.url`,
    /// `internal.connect.ms` (default 500), `internal.timeout.ms` (default 2000), `providers.connect.ms`
    /// (default 3000), `shutdown.grace.ms` (default 25000).
    public init(reader: ConfigReader, internalKeys given: InternalKeys? = nil, effects: Effects, logger: Logger) throws {
        guard let internalKeys = try given ?? InternalKeys.configured(by: reader) else {
            throw MissingConfiguration(
                key: "internal.keys", hint: "set INTERNAL_KEYS and each module's <MODULE>_INTERNAL_KEY; `huddle internal-keys` makes a set")
        }
        // Below Kubernetes' 30 s between SIGTERM and SIGKILL: a connection that does not end (a
        // client that keeps it open, a request stuck) is cancelled, and the stores still close.
        shutdownGrace = max(.milliseconds(1), reader.milliseconds("shutdown.grace.ms", default: 25_000))
        directory = ServiceDirectory(reader: reader)
        var internalConfiguration = HTTPClient.Configuration(
            // A refused connection is retried until the connect timeout; keep it short so a
            // dependency that is down answers 503 quickly instead of hanging the caller.
            timeout: .init(connect: .milliseconds(Int64(reader.integer("internal.connect.ms", default: 500))), read: .seconds(10)))
        // AsyncHTTPClient opens 8 connections a host and queues further requests, failing one that
        // waits past the connect timeout: a burst of calls to one module (every module asking auth
        // for its keys and revocations at start-up, a room's members checked at once) was answered
        // 503 while that module was up and answering. A module may take as many calls as come.
        internalConfiguration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: Self.connectionsPerModule)
        httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: internalConfiguration)
        // Outside providers sit across the internet (and TLS): a connection there may take longer
        // than one inside the cluster. Each call still has its own deadline, its provider's timeout.
        providerClient = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(
                timeout: .init(connect: .milliseconds(Int64(reader.integer("providers.connect.ms", default: 3000))), read: .seconds(30))))
        let directory = directory
        let listening = listening
        var dependencies = ServiceDependencies(
            directory: directory, httpClient: httpClient, providerClient: providerClient, metrics: MetricsBootstrap.registry(),
            internalKeys: internalKeys, effects: effects, logger: logger,
            onListening: { module, port in
                directory.set(module, url: "http://127.0.0.1:\(port)")
                await listening.markListening(module)
            })
        dependencies.internalTimeout = reader.milliseconds("internal.timeout.ms", default: 2000)
        self.dependencies = dependencies
    }

    /// The services to put in one `ServiceGroup`: each module's application, and the shared clients.
    ///
    /// A `ServiceGroup` stops its services in reverse order, so they are listed to stop the gateway
    /// first (no new requests), auth last of the modules (the others poll it for revoked sessions)
    /// and the shared clients after every module that calls through them.
    public func services(
        for modules: [ServiceModule], builders: [ServiceModule: ModuleBuilder], reader: ConfigReader
    ) async throws -> [any Service] {
        var services: [any Service] = [HTTPClientService(client: httpClient), HTTPClientService(client: providerClient)]
        for module in Self.startOrder(modules) {
            guard let builder = builders[module] else {
                throw WiringMistake(module, "this executable cannot run it")
            }
            var dependencies = dependencies
            dependencies.logger[metadataKey: "module"] = .string(module.rawValue)
            dependencies.credential = dependencies.internalKeys.credential(of: module, now: dependencies.effects.now)
            let (host, port) = reader.listenAddress(for: module.rawValue, defaultPort: module.defaultPort)
            do {
                if dependencies.credential == nil, Wiring.makesInternalCalls(module) {
                    throw MissingConfiguration(
                        key: "\(module.rawValue).internal.key",
                        hint: "\(module.rawValue) calls other modules and needs its own key (\(module.rawValue.uppercased())_INTERNAL_KEY)")
                }
                let application = try await builder.build(reader, dependencies)
                services.append(ModuleService(module: module, address: "\(host):\(port)", application: application))
            } catch {
                // Nothing will run the clients' services to shut them down; a client dropped
                // unclosed is a crash in debug builds that would hide this error.
                try? await httpClient.shutdown()
                try? await providerClient.shutdown()
                throw error
            }
        }
        return services
    }

    static func startOrder(_ modules: [ServiceModule]) -> [ServiceModule] {
        modules.filter { $0 == .auth } + modules.filter { $0 != .auth && $0 != .gateway } + modules.filter { $0 == .gateway }
    }

    /// The group that runs `services`: one that fails stops the others gracefully, so they close
    /// their connections and stores, and its error is what the group's `run` throws. Stopping
    /// gracefully is cancelled after `shutdown.grace.ms`.
    public func group(running services: [any Service], signals: [UnixSignal] = [], logger: Logger) -> ServiceGroup {
        var configuration = ServiceGroupConfiguration(
            services: services.map {
                .init(
                    // A module's application waits a second longer than its workers: one of them is
                    // what would hold it, and the warning should name that one.
                    service: dependencies.running.tracking(
                        $0, as: ($0 as? any CustomStringConvertible)?.description ?? "\(type(of: $0))", later: .seconds(1),
                        logger: logger),
                    failureTerminationBehavior: .gracefullyShutdownGroup)
            },
            gracefulShutdownSignals: signals, logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownGrace
        return ServiceGroup(configuration: configuration)
    }

    /// Runs a group made by `group(running:)`. Once it ends, whoever waits for modules to listen stops
    /// waiting: a module that failed to start says why at once rather than after the wait's timeout.
    public func run(_ group: ServiceGroup) async throws {
        do {
            try await group.run()
        } catch {
            await listening.markEnded()
            throw error
        }
        await listening.markEnded()
    }

    /// Waits until each module reports that its server is listening, or stops waiting after `timeout`
    /// (nil: for as long as the modules' migrations and other startup work take).
    public func waitUntilListening(_ modules: [ServiceModule], timeout: Duration? = .seconds(30)) async throws {
        try await listening.wait(for: Set(modules), timeout: timeout)
    }
}

public struct MissingConfiguration: Error, CustomStringConvertible {
    public let key: String
    public let hint: String
    public init(key: String, hint: String) {
        self.key = key
        self.hint = hint
    }
    public var description: String { "configuration '\(key)': \(hint)" }
}

/// What the code gets wrong in putting modules together — a route without a description, handlers and
/// `Wiring` that disagree, a module this executable does not have — found at start-up. No setting fixes it.
public struct WiringMistake: Error, CustomStringConvertible {
    public let module: ServiceModule
    public let mistake: String
    public init(_ module: ServiceModule, _ mistake: String) {
        self.module = module
        self.mistake = mistake
    }
    public var description: String { "\(module.rawValue) is wired wrong: \(mistake)" }
}

/// Modules that did not come to listen: one stopped first (its own error says why), or the start-up's
/// time ran out.
public struct StartupFailure: Error, CustomStringConvertible {
    public let modules: Set<ServiceModule>
    public let reason: String
    public var description: String { "\(modules.map(\.rawValue).sorted().joined(separator: ", ")) not listening: \(reason)" }
}

/// Shuts an HTTP client down after the servers that use it have stopped.
public struct HTTPClientService: Service {
    let client: HTTPClient
    public init(client: HTTPClient) { self.client = client }
    public func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}

/// Which of the runner's modules listen yet, for `waitUntilListening`.
actor ListeningModules {
    private var listening: Set<ServiceModule> = []
    private var ended = false

    func markListening(_ module: ServiceModule) { listening.insert(module) }
    func markEnded() { ended = true }

    func wait(for modules: Set<ServiceModule>, timeout: Duration?) async throws {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while !modules.isSubset(of: listening) {
            guard !ended else {
                throw StartupFailure(modules: modules.subtracting(listening), reason: "the stack stopped first")
            }
            if let timeout, let deadline, ContinuousClock.now >= deadline {
                throw StartupFailure(modules: modules.subtracting(listening), reason: "still not after \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
