import Configuration
import Foundation
import Logging
import NIOHTTP1
public import ProviderStandIns
import ServiceHTTP

/// The providers' stand-in and its APNs on port 0, with a development provider key and service
/// account, for the length of `body`: `settings` makes notify push to them (APNs trusting the
/// stand-in's certificate), `standInURL` is where `/test/apns/...` and `/test/fcm/...` list what
/// each phone received (and `recorder` holds it, for a benchmark in the same process).
public func withPushStandIns<T>(
    body: (_ settings: [String: String], _ standInURL: String, _ recorder: PushRecorder) async throws -> T
) async throws -> T {
    let certificate = FileManager.default.temporaryDirectory.appendingPathComponent("apns-\(UUID().uuidString).pem").path
    defer { try? FileManager.default.removeItem(atPath: certificate) }
    let key = DevelopmentAPNsKey(), account = try DevelopmentFCMAccount(), pushes = PushRecorder()
    let standInSettings = key.settings(standInURL: "", certificateFile: certificate)
        .merging(try account.settings(standInURL: "")) { _, new in new }
        .merging(["standin.apns.http.port": "0", "standin.http.port": "0"]) { _, new in new }
    let reader = ConfigReader(provider: EnvironmentVariablesProvider.settings(standInSettings))
    let logger = Logger.quiet("push-stand-ins")
    return try await withServerOnPort0({ buildProviderStandIns(reader: reader, logger: logger, pushes: pushes, onListening: $0) }) {
        standInURL in
        try await withServerOnPort0({ try await buildAPNsStandIn(reader: reader, logger: logger, pushes: pushes, onListening: $0) }) {
            apnsURL in
            let apns = apnsURL.replacingOccurrences(of: "http://", with: "https://")
            let settings = key.settings(standInURL: apns, certificateFile: certificate)
                .merging(try account.settings(standInURL: standInURL)) { _, new in new }
            return try await body(settings, standInURL, pushes)
        }
    }
}

extension TestClient {
    /// What the stand-in's APNs (`service: "apns"`) or FCM (`"fcm"`) recorded for `token`, refused
    /// attempts too with `rejected`; waits (up to thirty seconds) until there are `count`.
    public func pushes(_ service: String, to token: String, reaching count: Int = 0, rejected: Bool = false) async throws
        -> [PushRecorder.Attempt]
    {
        struct Deliveries: Decodable { let items: [PushRecorder.Attempt] }
        return try await poll(every: .milliseconds(50)) {
            try expect(200, try await raw(.GET, "/test/\(service)/deliveries?token=\(token)\(rejected ? "&include=rejected" : "")"))
                .decode(Deliveries.self).items
        } until: {
            $0.count >= count
        }
    }
}
