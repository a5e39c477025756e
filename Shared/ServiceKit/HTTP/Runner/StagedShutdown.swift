public import Logging
public import ServiceLifecycle

/// Runs an application so that its shutdown has two stages: first the instance turns unready and
/// tells its live sockets it is going away (1001); then the application itself is told, and its
/// server stops taking connections and finishes what is in flight.
///
/// Why a stage before the application's own: Hummingbird shuts an application's server down first
/// and its other services after, so a service beside the server hears of the shutdown too late; and
/// swift-websocket closes every socket as soon as the server is told, with 1000 (finished, do not
/// come back) rather than 1001.
public struct StagedShutdown: Service {
    let application: any Service
    let readiness: Readiness
    let sockets: OpenSockets
    let logger: Logger
    /// How long the first stage waits for the close frames to be written.
    static let closePatience = Duration.seconds(2)

    public init(_ application: any Service, readiness: Readiness, sockets: OpenSockets = OpenSockets(), logger: Logger) {
        self.application = application
        self.readiness = readiness
        self.sockets = sockets
        self.logger = logger
    }

    public func run() async throws {
        let group = ServiceGroup(configuration: .init(services: [application], logger: logger))
        let (readiness, sockets) = (readiness, sockets)
        // Detached, so the application does not inherit this task's shutdown: it hears of it from
        // `triggerGracefulShutdown` once the first stage is done. Cancellation is passed on by hand.
        let running = Task.detached { try await OpenSockets.$current.withValue(sockets) { try await group.run() } }
        try await withTaskCancellationHandler {
            try await withGracefulShutdownHandler {
                try await running.value
            } onGracefulShutdown: {
                readiness.beginDraining()
                Task {
                    await sockets.closeAll(within: Self.closePatience)
                    await group.triggerGracefulShutdown()
                }
            }
        } onCancel: {
            running.cancel()
        }
    }
}
