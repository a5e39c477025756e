import AsyncHTTPClient
import Configuration
public import Contracts
import Crypto
import Foundation
public import HuddleEffects
public import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
public import ServiceHTTP
public import ServiceLifecycle

/// Modules started for a test on port 0, each with its own fresh store, talking over real HTTP.
public final class TestStack: Sendable {
    /// How long a test stack's modules may take to listen. Sixteen stacks starting at once on CI's
    /// two shared cores, each module migrating a fresh PostgreSQL database, once kept auth from
    /// listening for over 30 s (five stacks at one moment, each of which starts in a few seconds
    /// alone): a hang is still caught, later.
    public static let startupPatience = Duration.seconds(120)

    /// The modules' keys for internal calls in every test: fixed, so modules in processes of their own
    /// and the tests that call them as a module agree (`internalKeySettings`, `internalCallers`).
    public static let internalKeys: InternalKeys = {
        let privateKeys = Dictionary(
            uniqueKeysWithValues: ServiceModule.allCases.map { module in
                let seed = SHA256.hash(data: Data("huddle test internal key \(module.rawValue)".utf8))
                guard let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: Data(seed)) else {
                    preconditionFailure("a SHA-256 digest is 32 bytes, the length of an Ed25519 private key")
                }
                return (module, key)
            })
        return InternalKeys(publicKeys: privateKeys.mapValues(\.publicKey), privateKeys: privateKeys)
    }()

    /// `internal.keys` and every module's `<module>.internal.key`, for a module started in a process of its own.
    public static var internalKeySettings: [String: String] {
        var settings = ["internal.keys": internalKeys.publicKeyList]
        for module in ServiceModule.allCases { settings["\(module.rawValue).internal.key"] = internalKeys.privateKeyText(of: module) }
        return settings
    }

    /// Signs a test's internal calls as a module the wiring lets make them.
    public static let internalCallers = InternalCallers(keys: internalKeys, now: Effects.system.now)

    public let runner: ModuleRunner
    private let group: ServiceGroup
    private let task: Task<Void, any Error>
    /// The PostgreSQL databases made for this stack's modules, dropped once it stops.
    private let madeDatabases: [String]

    /// Generous timeouts for the gateway's calls and the modules' connections to each other, and a
    /// cheap bcrypt: tests run many stacks at once on a small machine, and what they check is
    /// behaviour, not how fast a loaded machine answers (with sixteen stacks at once, connecting to
    /// auth took past its 500 ms, and a revocation poll, a seeding call or a course's creation failed
    /// with a 503; moderation's call to chat took past the 2 s a quiet machine gives it).
    public static let loadedMachineSettings: [String: String] = [
        "auth.bcrypt.cost": "4", "internal.connect.ms": "5000", "gateway.upstream.connect.ms": "5000",
        "gateway.upstream.timeout.ms": "30000", "gateway.health.timeout.ms": "10000", "internal.timeout.ms": "10000",
    ]

    /// Starts `builders` with test defaults (port 0, bcrypt cost 4, a fresh `store` per module),
    /// overridden by `config`. `extraServices` run in the same group (e.g. a stub provider). The
    /// modules log to `logger`, by default critical lines only (`HUDDLE_TEST_LOG_LEVEL` for more).
    public static func start(
        _ builders: [ModuleBuilder], store: TestStore = .sqlite, config: [String: String] = [:],
        extraServices: [any Service] = [], directory extraURLs: [ServiceModule: String] = [:], effects: Effects = .system,
        logger given: Logger? = nil
    ) async throws -> TestStack {
        var values = loadedMachineSettings
        values.merge(internalKeySettings) { _, new in new }
        let modules = builders.map(\.module)
        let made = try await store.freshDatabases(for: modules, besides: config)
        values.merge(made) { _, new in new }
        let madeDatabases = Array(made.values)
        for module in modules {
            values["\(module.rawValue).http.port"] = "0"
            // Dozens of stacks run at once against one PostgreSQL: a few connections each, and one kept
            // open when idle, keep them within its max_connections (four idle ones per module, as
            // deployed, took 24 stacks of eight modules to within a few of 1,000).
            values["\(module.rawValue).db.pool"] = "10"
            values["\(module.rawValue).db.pool.open"] = "1"
        }
        values["gateway.modules"] = modules.filter { $0 != .gateway }.map(\.rawValue).joined(separator: ",")
        values.merge(config) { _, new in new }
        let reader = ConfigReader(provider: EnvironmentVariablesProvider.settings(values))
        let logger =
            given
            ?? {
                var logger = Logger(label: "test")
                logger.logLevel =
                    ProcessInfo.processInfo.environment["HUDDLE_TEST_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) } ?? .critical
                return logger
            }()
        let runner = try ModuleRunner(reader: reader, effects: effects, logger: logger)
        for (module, url) in extraURLs { runner.directory.set(module, url: url) }
        let services = try await runner.services(
            for: modules, builders: Dictionary(uniqueKeysWithValues: builders.map { ($0.module, $0) }), reader: reader)
        let group = runner.group(running: extraServices + services, logger: logger)
        let task = Task { try await runner.run(group) }
        let stack = TestStack(runner: runner, group: group, task: task, madeDatabases: madeDatabases)
        do {
            try await runner.waitUntilListening(modules, timeout: Self.startupPatience)
        } catch {
            await stack.stop()
            throw error
        }
        return stack
    }

    private init(runner: ModuleRunner, group: ServiceGroup, task: Task<Void, any Error>, madeDatabases: [String]) {
        self.runner = runner
        self.group = group
        self.task = task
        self.madeDatabases = madeDatabases
    }

    public func url(_ module: ServiceModule) -> String { runner.directory.url(of: module) ?? "http://127.0.0.1:1" }

    /// Stops the modules, then drops the databases the stack made for them.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
        await TestStore.dropDatabases(madeDatabases)
    }

    /// Starts a stack, runs `body`, and always stops it.
    public static func with<T>(
        _ builders: [ModuleBuilder], store: TestStore = .sqlite, config: [String: String] = [:],
        extraServices: [any Service] = [], directory extraURLs: [ServiceModule: String] = [:], effects: Effects = .system,
        body: (TestStack) async throws -> T
    ) async throws -> T {
        let stack = try await start(
            builders, store: store, config: config, extraServices: extraServices, directory: extraURLs, effects: effects)
        do {
            let result = try await body(stack)
            await stopping(stack.runner.dependencies.running) { await stack.stop() }
            return result
        } catch {
            await stopping(stack.runner.dependencies.running) { await stack.stop() }
            throw error
        }
    }

    /// What `module`'s builder is handed, its credential included: for a test that calls other
    /// modules' internal operations as that module would.
    public func dependencies(of module: ServiceModule) -> ServiceDependencies {
        var dependencies = runner.dependencies
        dependencies.credential = Self.internalKeys.credential(of: module, now: dependencies.effects.now)
        return dependencies
    }

    /// A client for one module's public API.
    public func client(_ module: ServiceModule) -> TestClient { TestClient(baseURL: url(module), internalCallers: Self.internalCallers) }
}
