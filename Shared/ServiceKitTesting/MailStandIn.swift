import Configuration
import Foundation
import Logging
import NIOHTTP1
public import ProviderStandIns
import ServiceHTTP
import Testing

/// The providers' stand-in with its SMTP relay on port 0, for the length of `body`: `settings` makes a
/// module send its mail there (STARTTLS, trusting the stand-in's certificate, AUTH PLAIN, retries after
/// 200 ms), and `standInURL` is where `GET /test/mail` lists what arrived.
public func withMailStandIn<T>(body: (_ settings: [String: String], _ standInURL: String) async throws -> T) async throws -> T {
    let certificate = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString).pem").path
    defer { try? FileManager.default.removeItem(atPath: certificate) }
    let reader = ConfigReader(
        provider: EnvironmentVariablesProvider.settings([
            "standin.smtp.port": "0", "standin.http.port": "0", "standin.smtp.cert.file": certificate,
        ]))
    let logger = Logger.quiet("mail-stand-in"), mail = MailRecorder()
    return try await withServerOnPort0({ buildProviderStandIns(reader: reader, logger: logger, mail: mail, onListening: $0) }) {
        standInURL in
        try await withServerOnPort0({ try await SMTPStandIn(reader: reader, recorder: mail, logger: logger, onListening: $0) }) { smtp in
            let port = smtp.split(separator: ":").last.map(String.init) ?? ""
            let settings = [
                "mail.smtp.url": "smtp://huddle:huddle-dev-mail@127.0.0.1:\(port)", "mail.smtp.trust.file": certificate,
                "mail.retry.ms": "200",
            ]
            return try await body(settings, standInURL)
        }
    }
}

extension ReceivedMail {
    /// The token the mail's link carries (`https://…/reset?token=…`), read from its text part.
    public func linkedToken() throws -> String {
        let link = try #require(text.split(whereSeparator: \.isWhitespace).first { $0.contains("?token=") }, "no link in: \(text)")
        return try #require(URLComponents(string: String(link))?.queryItems?.first { $0.name == "token" }?.value)
    }
}

extension TestClient {
    /// The mail the stand-in's relay took for `address` (nil: for anyone) with `subject`, when
    /// given, newest first; waits (up to thirty seconds) until there are `count`.
    public func mails(to address: String?, subject: String? = nil, reaching count: Int = 0) async throws -> [ReceivedMail] {
        struct Mails: Decodable { let items: [ReceivedMail] }
        let query = address.map { "?to=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0) } ?? ""
        return try await poll(every: .milliseconds(50)) {
            try expect(200, try await raw(.GET, "/test/mail\(query)")).decode(Mails.self).items.filter {
                subject == nil || $0.subject == subject
            }
        } until: {
            $0.count >= count
        }
    }

    /// How many connections the relay has turned away since its outage began.
    public func mailConnectionsRefused() async throws -> Int {
        struct Outage: Decodable { let refused: Int }
        return try expect(200, try await raw(.GET, "/test/mail/outage")).decode(Outage.self).refused
    }

    /// Makes the stand-in's relay answer 421 to every new connection, or not.
    public func mailOutage(_ down: Bool) async throws {
        _ = try expect(204, try await raw(.POST, "/test/mail/outage", json: ["down": down]))
    }
}
