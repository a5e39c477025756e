import Configuration
import Foundation
import ServiceHTTP

/// Where and as whom notify talks to FCM. Without a service account there is no FCM sender: pushes
/// to Android phones wait in the queue (until they expire) and the start-up log says why.
struct FCMSettings: Sendable {
    /// `https://fcm.googleapis.com`; `messages:send` is under `/v1/projects/<project>/`.
    var url: String
    var account: ServiceAccount?
    var timeout: Duration

    /// The fields of a Google service account's JSON key notify uses.
    struct ServiceAccount: Codable, Sendable {
        var projectId: String
        var clientEmail: String
        var privateKey: String
        var tokenUri: String

        enum CodingKeys: String, CodingKey {
            case projectId = "project_id", clientEmail = "client_email", privateKey = "private_key", tokenUri = "token_uri"
        }
    }

    /// Keys: `notify.fcm.url` (`https://fcm.googleapis.com`), `notify.fcm.credentials` (the service
    /// account's JSON key, secret) or `notify.fcm.credentials.file`, `notify.fcm.timeout.ms` (10000).
    init(reader: ConfigReader) throws {
        url = reader.text("notify.fcm.url", default: "https://fcm.googleapis.com")
        var json = reader.text("notify.fcm.credentials", isSecret: true)
        if json == nil, let file = reader.text("notify.fcm.credentials.file") { json = try String(contentsOfFile: file, encoding: .utf8) }
        account = try json.map { try JSONDecoder().decode(ServiceAccount.self, from: Data($0.utf8)) }
        timeout = reader.milliseconds("notify.fcm.timeout.ms", default: 10_000)
    }
}
