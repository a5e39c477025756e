import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOExtras
import NIOPosix
import NIOSSL

/// Sends a mail to an SMTP relay (RFC 5321): EHLO, STARTTLS (RFC 3207) or TLS from the first byte,
/// AUTH PLAIN or LOGIN (RFC 4954), then MAIL, RCPT, DATA and QUIT. Written on SwiftNIO because no
/// SMTP package is among those this build can resolve; the protocol a transactional sender needs is
/// the ~150 lines below.
public struct SMTPClient: Sendable {
    public let relay: SMTPRelay
    /// What the client calls itself in EHLO.
    let heloName: String
    /// The whole exchange, connection to QUIT.
    let timeout: Duration

    public init(relay: SMTPRelay, heloName: String = "huddle.local", timeout: Duration = .seconds(20)) {
        self.relay = relay
        self.heloName = heloName
        self.timeout = timeout
    }

    /// Sends `message`; throws `SMTPFailure` saying whether trying again can help.
    public func send(_ message: MailMessage) async throws {
        let outcome = NIOLockedValueBox<Result<Void, SMTPFailure>?>(nil)
        try await send([message]) { _, answer in
            outcome.withLockedValue { $0 = answer }
            return true
        }
        try outcome.withLockedValue { $0 }?.get()
    }

    /// Sends `messages` in one session, a mail transaction each (RFC 5321 §3.3: a session carries
    /// many), so a queue is not a connection, a TLS handshake and a login per mail: sent one session
    /// a mail, a burst of registrations' mails held a password reset behind them for over 30 s.
    /// `answered` is told each mail's outcome, in order, and answers whether to go on. A relay that
    /// cannot be reached, or drops the session, throws; the mails not yet answered were not sent.
    /// The session is given `timeout` for each mail it carries.
    public func send(
        _ messages: [MailMessage], answered: @escaping @Sendable (Int, Result<Void, SMTPFailure>) async -> Bool
    ) async throws {
        guard !messages.isEmpty else { return }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await exchange(messages, answered: answered) }
            group.addTask {
                let limit = timeout * messages.count
                try await Task.sleep(for: limit)
                throw SMTPFailure(reply: "no answer within \(limit)", permanent: false)
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    private func exchange(
        _ messages: [MailMessage], answered: @escaping @Sendable (Int, Result<Void, SMTPFailure>) async -> Bool
    ) async throws {
        let tls = try relay.tlsConfiguration()
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(5))
                .connect(host: relay.host, port: relay.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if relay.security == .implicitTLS {
                            try channel.pipeline.syncOperations.addHandler(
                                try NIOSSLClientHandler(context: NIOSSLContext(configuration: tls), serverHostname: relay.sniName))
                        }
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                        return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw SMTPFailure(reply: "cannot reach \(relay.host):\(relay.port): \(error)", permanent: false)
        }
        try await channel.executeThenClose { inbound, outbound in
            var session = SMTPSession(lines: inbound.makeAsyncIterator(), outbound: outbound)
            try await session.expect(220)
            var capabilities = try await session.command("EHLO \(heloName)", expecting: 250).lines
            if relay.security == .startTLS {
                guard capabilities.contains(where: { $0.uppercased() == "STARTTLS" }) else {
                    throw SMTPFailure(reply: "the relay does not offer STARTTLS", permanent: false)
                }
                try await session.command("STARTTLS", expecting: 220)
                let handler = try NIOSSLClientHandler(context: NIOSSLContext(configuration: tls), serverHostname: relay.sniName)
                try await channel.channel.pipeline.addHandler(handler, position: .first).get()
                capabilities = try await session.command("EHLO \(heloName)", expecting: 250).lines
            }
            if let credentials = relay.credentials { try await session.authenticate(credentials, offered: capabilities) }
            for (index, message) in messages.enumerated() {
                do {
                    try await session.command("MAIL FROM:<\(message.from.email)>", expecting: 250)
                    try await session.command("RCPT TO:<\(message.to.email)>", expecting: 250, 251)
                    try await session.command("DATA", expecting: 354)
                    try await session.command(SMTPSession.dotStuffed(message.rendered()) + ".", expecting: 250)
                } catch let refused as SMTPFailure {
                    guard await answered(index, .failure(refused)) else { break }
                    // The refused transaction is reset; a relay that does not answer has dropped the session.
                    try await session.command("RSET", expecting: 250)
                    continue
                }
                guard await answered(index, .success(())) else { break }
            }
            _ = try? await session.command("QUIT", expecting: 221)
        }
    }
}

/// A relay the queue sends through: `mail.smtp.url`.
public struct SMTPRelay: Sendable {
    public enum Security: Sendable {
        /// `smtp://`: plain at first, then STARTTLS, which must be offered (credentials never travel in the clear).
        case startTLS
        /// `smtps://`: TLS from the first byte (port 465).
        case implicitTLS
        /// `smtp://…?tls=none`: a relay on the same host or network that offers no TLS.
        case none
    }

    public let host: String
    public let port: Int
    public let security: Security
    public let credentials: (user: String, password: String)?
    /// A PEM file of certificates to trust besides the system's (a relay with a private CA; the stand-in's).
    public let trustFile: String?

    /// `smtp://user:pass@host:587`, `smtps://user:pass@host:465`, `smtp://host:25?tls=none`.
    public init?(url text: String, trustFile: String? = nil) {
        guard let url = URLComponents(string: text), let host = url.host, !host.isEmpty else { return nil }
        switch url.scheme {
        case "smtps": security = .implicitTLS
        case "smtp": security = url.queryItems?.contains { $0.name == "tls" && $0.value == "none" } == true ? .none : .startTLS
        default: return nil
        }
        self.host = host
        port = url.port ?? (security == .implicitTLS ? 465 : 587)
        if let user = url.user?.removingPercentEncoding, !user.isEmpty {
            credentials = (user, url.password?.removingPercentEncoding ?? "")
        } else {
            credentials = nil
        }
        self.trustFile = trustFile
    }

    /// SNI names hosts, never addresses.
    var sniName: String? { host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" } ? nil : host }

    func tlsConfiguration() throws -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trustFile { tls.additionalTrustRoots = [.file(trustFile)] }
        return tls
    }
}

/// Why a mail was not sent: `permanent` when the relay refused it for good (a 5xx), so trying again
/// would not help.
public struct SMTPFailure: Error, CustomStringConvertible {
    public let reply: String
    public let permanent: Bool
    public var description: String { reply }
}

/// One conversation with a relay: commands and their (possibly multi-line) replies.
struct SMTPSession {
    struct Reply {
        let code: Int
        /// Each line's text after the code (`STARTTLS`, `AUTH PLAIN LOGIN`).
        let lines: [String]
    }

    var lines: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    @discardableResult
    mutating func command(_ text: String, expecting codes: Int...) async throws -> Reply {
        try await outbound.write(ByteBuffer(string: text + "\r\n"))
        return try await expect(codes)
    }

    @discardableResult
    mutating func expect(_ codes: Int...) async throws -> Reply { try await expect(codes) }

    mutating func expect(_ codes: [Int]) async throws -> Reply {
        let reply = try await read()
        guard codes.contains(reply.code) else {
            throw SMTPFailure(reply: "\(reply.code) \(reply.lines.joined(separator: " "))", permanent: (500..<600).contains(reply.code))
        }
        return reply
    }

    /// `250-first`, `250-second`, `250 last`: one reply.
    mutating func read() async throws -> Reply {
        var texts: [String] = []
        while true {
            guard let buffer = try await lines.next() else { throw SMTPFailure(reply: "the relay closed the connection", permanent: false) }
            let line = String(buffer: buffer)
            guard line.count >= 3, let code = Int(line.prefix(3)) else { throw SMTPFailure(reply: "not SMTP: \(line)", permanent: false) }
            texts.append(String(line.dropFirst(4)))
            if line.count == 3 || line[line.index(line.startIndex, offsetBy: 3)] == " " { return Reply(code: code, lines: texts) }
        }
    }

    /// PLAIN when offered, else LOGIN.
    mutating func authenticate(_ credentials: (user: String, password: String), offered capabilities: [String]) async throws {
        let mechanisms = Set(
            capabilities.filter { $0.uppercased().hasPrefix("AUTH ") }.flatMap { $0.uppercased().split(separator: " ").dropFirst() }.map(
                String.init))
        func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
        if mechanisms.contains("PLAIN") {
            try await command("AUTH PLAIN " + base64("\0\(credentials.user)\0\(credentials.password)"), expecting: 235)
        } else if mechanisms.contains("LOGIN") {
            try await command("AUTH LOGIN", expecting: 334)
            try await command(base64(credentials.user), expecting: 334)
            try await command(base64(credentials.password), expecting: 235)
        } else {
            throw SMTPFailure(reply: "the relay offers neither AUTH PLAIN nor LOGIN", permanent: true)
        }
    }

    /// A line that starts with a dot gets another (RFC 5321 §4.5.2), so none ends the data early.
    static func dotStuffed(_ text: String) -> String {
        text.split(separator: "\r\n", omittingEmptySubsequences: false).map { $0.hasPrefix(".") ? "." + $0 : String($0) }
            .joined(separator: "\r\n")
    }
}
