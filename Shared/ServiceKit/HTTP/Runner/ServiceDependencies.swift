public import AsyncHTTPClient
import Configuration
public import Contracts
public import HuddleEffects
public import Logging
public import Prometheus

/// What every service builder is handed by whoever runs it: the runner in production, tests alike.
public struct ServiceDependencies: Sendable {
    /// The clock: the only time the module reads.
    public var effects: Effects
    /// Where the other modules are.
    public var directory: ServiceDirectory
    /// Shared client for internal calls; its lifetime is owned by the runner.
    public var httpClient: HTTPClient
    /// Shared client for outside providers (Facebook, weather, news feeds), which may take longer
    /// to connect to; its lifetime is owned by the runner.
    public var providerClient: HTTPClient
    /// Registry that `/metrics` renders.
    public var metrics: PrometheusCollectorRegistry
    /// Every module's public key, which `/internal/...` routes check their callers' tokens against.
    public var internalKeys: InternalKeys
    /// The module's own credential, which signs the internal calls it makes; set by the runner for
    /// each module it builds (nil where the module's key is not held).
    public var credential: ModuleCredential?
    /// How long an internal call may take when its caller sets no time of its own (`internal.timeout.ms`).
    public var internalTimeout: Duration = .seconds(2)
    public var logger: Logger
    /// Called once the module's server is listening, with the port it got.
    public var onListening: @Sendable (ServiceModule, Int) async -> Void
    /// The runner's services and each module's own (its workers, its store) while they run.
    public var running = RunningServices()

    public init(
        directory: ServiceDirectory, httpClient: HTTPClient, providerClient: HTTPClient, metrics: PrometheusCollectorRegistry,
        internalKeys: InternalKeys, credential: ModuleCredential? = nil, effects: Effects, logger: Logger,
        onListening: @escaping @Sendable (ServiceModule, Int) async -> Void = { _, _ in }
    ) {
        self.directory = directory
        self.httpClient = httpClient
        self.providerClient = providerClient
        self.metrics = metrics
        self.internalKeys = internalKeys
        self.credential = credential
        self.effects = effects
        self.logger = logger
        self.onListening = onListening
    }
}
