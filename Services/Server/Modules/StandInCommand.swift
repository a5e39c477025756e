import Configuration
import Logging
import ProviderStandIns
import ServiceLifecycle
import UnixSignals

/// Entry point of `stand-in`: the outside providers' stand-in on its own (`huddle` also runs it).
public enum StandInCommand {
    public static func main() async throws {
        let reader = ConfigReader.huddle()
        let logger = bootstrapLogging(level: reader.string(forKey: "log.level", default: "info"), label: "huddle.stand-in")
        let stub = buildProviderStandIns(reader: reader, logger: logger)
        try await ServiceGroup(services: [stub], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger).run()
    }
}
