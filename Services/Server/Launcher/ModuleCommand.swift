import ArgumentParser
import Configuration
public import Contracts
public import Logging
import NIOCore
import NIOPosix
public import ServiceHTTP
import UnixSignals

/// The thin executables (`gateway`, `auth`, …): run one module, configured by the environment
/// (e.g. `AUTH_HTTP_HOST=0.0.0.0 AUTH_DB_URL=postgres://… INTERNAL_KEYS=… AUTH_INTERNAL_KEY=…`) and `--set key=value`.
/// Each links only its own module's library (`ModuleBuilder.auth`), so the gateway's links no database driver.
public enum ModuleCommand {
    public static func main(_ builder: ModuleBuilder) async {
        let module = builder.module
        do {
            let options = try Options.parse()
            let reader = try await ConfigReader.huddle(overrides: try parseSettings(options.set))
            let logger = bootstrapLogging(level: reader.string(forKey: "log.level", default: "info"), label: "huddle.\(module.rawValue)")
            OpenFilesLimit.raise(logging: logger)
            // Before any HTTP client is made: AsyncHTTPClient takes the tracer when it is created.
            if options.migrate {
                guard let migrate = builder.migrate else {
                    throw MissingConfiguration(key: "--migrate", hint: "\(module.rawValue) has no store")
                }
                try await migrate(reader, logger)
                logger.info("\(module.rawValue): every migration applied")
                return
            }
            let tracing = try HuddleTracing.bootstrap(serviceName: module.rawValue)
            // No deadline of its own: a migration over a large table (search's index over a million
            // games took 30–70 s here) would be cut off and retried at every start. The orchestrator's
            // startup probe bounds the start instead (three minutes in deploy/kubernetes).
            let stack = try await EmbeddedStack.start(
                modules: [module], builders: [module: builder], reader: reader, logger: logger, extraServices: [tracing].compactMap { $0 },
                gracefulShutdownSignals: [.sigterm, .sigint], startupTimeout: nil)
            logger.info("\(module.rawValue) listening at \(stack.url(of: module))")
            try await stack.wait()
        } catch {
            Options.exit(withError: error)
        }
    }

    struct Options: ParsableArguments {
        @Option(help: "Set a configuration key, e.g. --set auth.http.port=9000 (repeatable).")
        var set: [String] = []
        @Flag(
            help: "Apply the module's migrations to its store, then exit (run once a rollout; the pods wait with <module>.db.migrate=wait)."
        )
        var migrate = false
    }
}

/// Logs to standard error at the given level (`trace` … `critical`).
public func bootstrapLogging(level: String, label: String) -> Logger {
    let parsed = Logger.Level(rawValue: level.lowercased()) ?? .info
    LoggingSystem.bootstrap(
        { label, metadataProvider in StandardErrorLogHandler(label: label, logLevel: parsed, metadataProvider: metadataProvider) },
        metadataProvider: .multiplex([RequestMetadata.provider, .tracing]))
    return Logger(label: label)
}

extension ModuleCommand {
    /// Makes NIO's event loops Swift Concurrency's global executor, `<module>.event.loops` of them
    /// (default: one a core). Call first thing in `main`, before any task starts; suits a process
    /// that mostly waits on sockets (the gateway).
    public static func runTasksOnEventLoops(_ module: ServiceModule) {
        // Bad options are reported by `main`; here they only leave NIO's default.
        let overrides = (try? Options.parse()).flatMap { try? parseSettings($0.set) } ?? [:]
        // Read before any task may run, so from the command line and the environment only (no secret files).
        let early = ConfigReader(providers: [EnvironmentVariablesProvider.settings(overrides), EnvironmentVariablesProvider()])
        let loops = early.integer("\(module.rawValue).event.loops", default: 0)
        if loops > 0 { NIOSingletons.groupLoopCountSuggestion = loops }
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

}
