public import Configuration
import ServiceHTTP

/// How mail leaves: read by every module that sends some.
public struct MailSettings: Sendable {
    /// nil: no relay (`mail.smtp.url` unset); mail is queued and waits for one.
    public var relay: SMTPRelay?
    public var sender: MailAddress
    /// The first retry's wait (`mail.retry.ms`, 30 s), doubling with each attempt up to an hour.
    public var retry: Duration
    /// How long one exchange with the relay may take (`mail.smtp.timeout.ms`, 20 s).
    public var timeout: Duration
    /// How long the instance sending mail holds the queue (`mail.lease.ms`, 10 s): another takes
    /// over within it when that instance dies.
    public var lease: Duration
    /// Where links in mail point (`mail.links.url`): the app's or the web's page that takes a token.
    public var linkBase: String

    /// Keys: `mail.smtp.url` (`smtp://user:pass@host:587` with STARTTLS, `smtps://…:465`,
    /// `smtp://host:25?tls=none`), `mail.smtp.trust.file` (a PEM of certificates to trust besides the
    /// system's), `mail.from` (`Huddle <no-reply@huddle.dev>`), `mail.retry.ms`, `mail.smtp.timeout.ms`, `mail.lease.ms`,
    /// `mail.links.url` (`https://huddle.dev`).
    public init(reader: ConfigReader) throws {
        let url = reader.text("mail.smtp.url", isSecret: true)
        if let url, !url.isEmpty {
            guard let relay = SMTPRelay(url: url, trustFile: reader.text("mail.smtp.trust.file")) else {
                throw MissingConfiguration(key: "mail.smtp.url", hint: "smtp://user:password@host:587 or smtps://user:password@host:465")
            }
            self.relay = relay
        }
        let from = reader.text("mail.from", default: "Huddle <no-reply@huddle.dev>")
        guard let sender = MailAddress(parsing: from) else {
            throw MissingConfiguration(key: "mail.from", hint: "an address, with a name if you like: Huddle <no-reply@huddle.dev>")
        }
        self.sender = sender
        retry = reader.milliseconds("mail.retry.ms", default: 30_000)
        timeout = reader.milliseconds("mail.smtp.timeout.ms", default: 20_000)
        lease = reader.milliseconds("mail.lease.ms", default: 10_000)
        linkBase = reader.text("mail.links.url", default: "https://huddle.dev")
    }

    public var client: SMTPClient? { relay.map { SMTPClient(relay: $0, timeout: timeout) } }
}
