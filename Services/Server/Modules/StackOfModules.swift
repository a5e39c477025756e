public import Configuration
public import Contracts
public import HuddleEffects
public import Logging
public import ModuleLauncher
public import ServiceHTTP
public import ServiceLifecycle
public import UnixSignals

extension EmbeddedStack {
    /// `modules` from every module this build can run (`HuddleModules.builders`): what `huddle`, the
    /// benchmarks and the end-to-end tests start.
    public static func start(
        modules: [ServiceModule], reader: ConfigReader, internalKeys: InternalKeys? = nil, effects: Effects = .system, logger: Logger,
        extraServices: [any Service] = [], gracefulShutdownSignals: [UnixSignal] = [], startupTimeout: Duration? = .seconds(30)
    ) async throws -> EmbeddedStack {
        try await start(
            modules: modules, builders: HuddleModules.builders, reader: reader, internalKeys: internalKeys, effects: effects,
            logger: logger,
            extraServices: extraServices, gracefulShutdownSignals: gracefulShutdownSignals, startupTimeout: startupTimeout)
    }
}
