public import Configuration
public import Contracts
public import HuddleEffects
public import Logging
public import ServiceHTTP
public import ServiceLifecycle
public import UnixSignals

/// A set of modules running in this process in one `ServiceGroup`: what `huddle` runs, and what
/// end-to-end tests start on port 0.
public final class EmbeddedStack: Sendable {
    public let runner: ModuleRunner
    public let modules: [ServiceModule]
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Returns once every module listens; gives up after `startupTimeout` (nil: waits for as long as
    /// their migrations take, and only a module that fails to start ends the wait).
    public static func start(
        modules: [ServiceModule], builders: [ServiceModule: ModuleBuilder], reader: ConfigReader, internalKeys: InternalKeys? = nil,
        effects: Effects = .system, logger: Logger,
        extraServices: [any Service] = [], gracefulShutdownSignals: [UnixSignal] = [], startupTimeout: Duration? = .seconds(30)
    ) async throws -> EmbeddedStack {
        // A module started without the address of one it calls would fail on its first request;
        // it refuses to start instead, saying which address is missing.
        if let (caller, callee) = Wiring.unreachableCallees(of: modules, directory: ServiceDirectory(reader: reader)).first {
            throw MissingConfiguration(
                key: "\(callee.rawValue).url",
                hint: "\(caller.rawValue) calls \(callee.rawValue): set \(callee.rawValue.uppercased())_URL to its address")
        }
        let runner = try ModuleRunner(reader: reader, internalKeys: internalKeys, effects: effects, logger: logger)
        let services = try await runner.services(for: modules, builders: builders, reader: reader)
        let group = runner.group(running: extraServices + services, signals: gracefulShutdownSignals, logger: logger)
        let task = Task { try await runner.run(group) }
        let stack = EmbeddedStack(runner: runner, modules: modules, group: group, task: task)
        do {
            try await runner.waitUntilListening(modules, timeout: startupTimeout)
        } catch {
            // A module that failed to start (e.g. its database is unreachable) says why here.
            await group.triggerGracefulShutdown()
            try await task.value
            throw error
        }
        return stack
    }

    private init(runner: ModuleRunner, modules: [ServiceModule], group: ServiceGroup, task: Task<Void, any Error>) {
        self.runner = runner
        self.modules = modules
        self.group = group
        self.task = task
    }

    /// Base URL of a running module, e.g. `http://127.0.0.1:8080`.
    public func url(of module: ServiceModule) -> String {
        runner.directory.url(of: module) ?? "http://127.0.0.1:0"
    }

    /// Runs until a shutdown signal (or a module fails).
    public func wait() async throws { try await task.value }

    public func stop() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }
}
