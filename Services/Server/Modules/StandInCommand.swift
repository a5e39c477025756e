import Configuration
import Logging
import ProviderStandIns
import ServiceLifecycle
import UnixSignals

/// Entry point of `stand-in`: the outside providers' stand-in on its own (`huddle` also runs it).
public enum StandInCommand {
    public static func main() async throws {
        let reader = try await ConfigReader.huddle()
        let logger = bootstrapLogging(level: reader.string(forKey: "log.level", default: "info"), label: "huddle.stand-in")
        let pushes = PushRecorder()
        let stub = buildProviderStandIns(reader: reader, logger: logger, pushes: pushes)
        let apns = try await buildAPNsStandIn(reader: reader, logger: logger, pushes: pushes)
        try await ServiceGroup(services: [stub, apns], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger).run()
    }
}
