import Configuration
import Logging
import OAuthStub
import ServiceLifecycle
import UnixSignals

/// Entry point of `oauth-stub`: the Facebook stand-in on its own (`huddle` also runs it).
public enum OAuthStubCommand {
    public static func main() async throws {
        let reader = ConfigReader.huddle()
        let logger = bootstrapLogging(level: reader.string(forKey: "log.level", default: "info"), label: "huddle.oauth-stub")
        let stub = buildOAuthStub(reader: reader, logger: logger)
        try await ServiceGroup(services: [stub], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger).run()
    }
}
