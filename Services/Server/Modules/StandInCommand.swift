import Configuration
import Foundation
import Logging
import ModuleLauncher
import ProviderStandIns
import ServiceLifecycle
import UnixSignals

/// Entry point of `stand-in`: the outside providers' stand-in on its own (`huddle` also runs it).
public enum StandInCommand {
    public static func main() async throws {
        let reader = try await ConfigReader.huddle()
        let logger = bootstrapLogging(level: reader.string(forKey: "log.level", default: "info"), label: "huddle.stand-in")
        let pushes = PushRecorder()
        // Its App Store's root, written where purchases is told to read it (`purchases.appstore.roots.file`).
        let appStore = try AppStoreStandIn(bundleID: reader.string(forKey: "standin.appstore.bundle.id", default: "dev.huddle.app"))
        if let file = reader.string(forKey: "standin.appstore.root.file") {
            try appStore.signer.rootPEM.write(toFile: file, atomically: true, encoding: .utf8)
        }
        let mail = MailRecorder()
        let stub = buildProviderStandIns(
            reader: reader, logger: logger, pushes: pushes, appStore: appStore, appleID: try AppleIDStandIn(), google: try GoogleStandIn(),
            mail: mail)
        let apns = try await buildAPNsStandIn(reader: reader, logger: logger, pushes: pushes)
        let smtp = try await SMTPStandIn(reader: reader, recorder: mail, logger: logger)
        try await ServiceGroup(services: [stub, apns, smtp], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger).run()
    }
}
