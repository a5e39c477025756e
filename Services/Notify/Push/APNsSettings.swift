import Configuration
import Foundation
import ServiceHTTP

/// Where and as whom notify talks to APNs. Without a key there is no APNs sender: pushes to
/// iPhones wait in the queue (until they expire) and the start-up log says why.
struct APNsSettings: Sendable {
    var productionURL: String
    var sandboxURL: String
    var keyID: String
    var teamID: String
    /// The `.p8` key's PEM text.
    var privateKeyPEM: String?
    /// A PEM certificate to trust besides the system's (the stand-in's, in development).
    var trustFile: String?
    var timeout: Duration

    /// Keys: `notify.apns.url` (`https://api.push.apple.com`), `notify.apns.sandbox.url`
    /// (`https://api.sandbox.push.apple.com`), `notify.apns.key.id`, `notify.apns.team.id`,
    /// `notify.apns.key` (the PEM, secret) or `notify.apns.key.file`, `notify.apns.trust.file`,
    /// `notify.apns.timeout.ms` (10000).
    init(reader: ConfigReader) throws {
        productionURL = reader.text("notify.apns.url", default: "https://api.push.apple.com")
        sandboxURL = reader.text("notify.apns.sandbox.url", default: "https://api.sandbox.push.apple.com")
        keyID = reader.text("notify.apns.key.id", default: "")
        teamID = reader.text("notify.apns.team.id", default: "")
        if let pem = reader.text("notify.apns.key", isSecret: true) {
            privateKeyPEM = pem
        } else if let file = reader.text("notify.apns.key.file") {
            privateKeyPEM = try String(contentsOfFile: file, encoding: .utf8)
        }
        trustFile = reader.text("notify.apns.trust.file")
        timeout = reader.milliseconds("notify.apns.timeout.ms", default: 10_000)
    }
}
