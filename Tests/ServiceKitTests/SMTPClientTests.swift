import Configuration
import Foundation
import Logging
import NIOConcurrencyHelpers
import ProviderStandIns
import ServiceFeatures
import ServiceHTTP
import ServiceKitTesting
import Testing

/// The SMTP client against the stand-in's relay, one exchange at a time.
@Suite("SMTP client")
struct SMTPClientTests {
    /// The relay on port 0 offering `mechanisms` (with STARTTLS, or TLS from the first byte when
    /// `tls` is `implicit`); `body` gets its port, its certificate's file and the recorder.
    static func withRelay<T>(mechanisms: String, tls: String = "starttls", body: (Int, String, MailRecorder) async throws -> T) async throws
        -> T
    {
        let certificate = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: certificate) }
        let reader = ConfigReader(
            provider: EnvironmentVariablesProvider.settings([
                "standin.smtp.port": "0", "standin.smtp.cert.file": certificate, "standin.smtp.auth": mechanisms, "standin.smtp.tls": tls,
            ]))
        let recorder = MailRecorder()
        return try await withServerOnPort0({
            try await SMTPStandIn(reader: reader, recorder: recorder, logger: .quiet("smtp"), onListening: $0)
        }) {
            url in
            try await body(Int(url.split(separator: ":").last ?? "") ?? 0, certificate, recorder)
        }
    }

    static func message(to address: String) -> MailMessage {
        let sender = MailAddress("no-reply@huddle.dev", name: "Huddle")
        return MailMessage(
            from: sender, to: MailAddress(address, name: "Tõnu Tamm"),
            subject: "Tere, Tõnu! A subject long enough to be folded into two encoded words",
            text: "Line one\n.a line that starts with a dot\nend", html: "<p>Hi</p>", messageID: MailMessage.newMessageID(from: sender),
            date: Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test(
        "over STARTTLS with AUTH LOGIN where PLAIN is not offered, the relay takes the message as written: subject, both parts, a dotted line"
    )
    func authLogin() async throws {
        try await Self.withRelay(mechanisms: "LOGIN") { port, certificate, recorder in
            let relay = try #require(SMTPRelay(url: "smtp://huddle:huddle-dev-mail@127.0.0.1:\(port)", trustFile: certificate))
            let message = Self.message(to: "tonu@example.com")
            try await SMTPClient(relay: relay).send(message)
            let received = try #require(await recorder.mails(to: "tonu@example.com").first)
            #expect(received.subject == message.subject && received.html == "<p>Hi</p>")
            #expect(received.text == message.text && received.messageId == message.messageID)
        }
    }

    @Test("a queue's mails go in one session, each answered in order; told to stop, the session sends no more")
    func manyInOneSession() async throws {
        try await Self.withRelay(mechanisms: "PLAIN") { port, certificate, recorder in
            let relay = try #require(SMTPRelay(url: "smtp://huddle:huddle-dev-mail@127.0.0.1:\(port)", trustFile: certificate))
            let batch = ["one", "two", "three"].map { Self.message(to: "\($0)@example.com") }
            let answers = NIOLockedValueBox<[Int]>([])
            try await SMTPClient(relay: relay).send(batch) { index, outcome in
                if case .success = outcome { answers.withLockedValue { $0.append(index) } }
                return true
            }
            #expect(answers.withLockedValue { $0 } == [0, 1, 2])
            for address in ["one", "two", "three"] { #expect(await recorder.mails(to: "\(address)@example.com").count == 1) }

            let stopped = ["four", "five"].map { Self.message(to: "\($0)@example.com") }
            try await SMTPClient(relay: relay).send(stopped) { _, _ in false }
            #expect(await recorder.mails(to: "four@example.com").count == 1)
            #expect(await recorder.mails(to: "five@example.com").isEmpty)
        }
    }

    @Test("over implicit TLS (smtps) with AUTH PLAIN; a client expecting STARTTLS there sends nothing")
    func implicitTLS() async throws {
        try await Self.withRelay(mechanisms: "PLAIN", tls: "implicit") { port, certificate, recorder in
            let relay = try #require(SMTPRelay(url: "smtps://huddle:huddle-dev-mail@127.0.0.1:\(port)", trustFile: certificate))
            #expect(relay.security == .implicitTLS)
            let message = Self.message(to: "kadri@example.com")
            try await SMTPClient(relay: relay).send(message)
            let received = try #require(await recorder.mails(to: "kadri@example.com").first)
            #expect(received.messageId == message.messageID && received.text == message.text)
            // Plain text to a TLS port is not a conversation: the client gives up, the relay records nothing.
            let confused = try #require(SMTPRelay(url: "smtp://huddle:huddle-dev-mail@127.0.0.1:\(port)", trustFile: certificate))
            await #expect(throws: (any Error).self) {
                try await SMTPClient(relay: confused, timeout: .seconds(1)).send(Self.message(to: "aet@example.com"))
            }
            #expect(await recorder.mails(to: "aet@example.com").isEmpty)
        }
    }

    @Test("wrong credentials are a permanent failure; a relay that is down or untrusted is one to try again")
    func failures() async throws {
        try await Self.withRelay(mechanisms: "PLAIN LOGIN") { port, certificate, _ in
            let wrong = try #require(SMTPRelay(url: "smtp://huddle:not-it@127.0.0.1:\(port)", trustFile: certificate))
            let refused = await #expect(throws: SMTPFailure.self) {
                try await SMTPClient(relay: wrong).send(Self.message(to: "a@example.com"))
            }
            #expect(refused?.permanent == true)
            // Without the relay's certificate among those trusted, STARTTLS fails and nothing is sent in the clear.
            let untrusted = try #require(SMTPRelay(url: "smtp://huddle:huddle-dev-mail@127.0.0.1:\(port)"))
            await #expect(throws: (any Error).self) { try await SMTPClient(relay: untrusted).send(Self.message(to: "a@example.com")) }
        }
        let down = try #require(SMTPRelay(url: "smtp://huddle:x@127.0.0.1:\(try await freeLoopbackPort())"))
        let unreachable = await #expect(throws: SMTPFailure.self) {
            try await SMTPClient(relay: down).send(Self.message(to: "a@example.com"))
        }
        #expect(unreachable?.permanent == false)
    }
}
