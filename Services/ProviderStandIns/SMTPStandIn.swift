public import Configuration
import Foundation
import HuddleEffects
public import Logging
import NIOCore
import NIOExtras
import NIOPosix
import NIOSSL
public import ServiceLifecycle

/// A mail relay as a sender meets it (RFC 5321): a greeting, EHLO offering STARTTLS (with a
/// certificate made at start) and AUTH PLAIN/LOGIN, MAIL, RCPT, DATA, RSET, NOOP and QUIT. It checks
/// the credentials it was given, refuses mail before AUTH when it has some, and keeps each message it
/// accepts in a `MailRecorder` (listed under `GET /test/mail`). `POST /test/mail/outage` makes it answer
/// 421 to every new connection, as a relay that is down for maintenance does.
///
/// Keys: `standin.smtp.port` (2525), `standin.smtp.tls` (`starttls`, or `implicit` for TLS from the
/// first byte as on port 465), `standin.smtp.auth` (the mechanisms offered, `PLAIN LOGIN`),
/// `standin.smtp.user` and `standin.smtp.password` (`huddle` and
/// `huddle-dev-mail`), `standin.smtp.cert.file` (where its certificate's PEM is written, for senders to trust;
/// `GET /test/mail/certificate` serves it too).
public struct SMTPStandIn: Service {
    let host: String
    let port: Int
    let credentials: (user: String, password: String)
    /// The AUTH mechanisms it offers, in order (`standin.smtp.auth`, `PLAIN LOGIN`).
    let mechanisms: String
    /// TLS from the first byte (`standin.smtp.tls` = `implicit`) instead of after STARTTLS.
    let implicitTLS: Bool
    let recorder: MailRecorder
    let identity: StandInCertificate
    let logger: Logger
    let onListening: @Sendable (Int) async -> Void

    public init(
        reader: ConfigReader, recorder: MailRecorder, logger: Logger, onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        host = reader.string(forKey: "standin.http.host", default: "127.0.0.1")
        port = reader.int(forKey: "standin.smtp.port", default: 2525)
        credentials = (
            reader.string(forKey: "standin.smtp.user", default: "huddle"),
            reader.string(forKey: "standin.smtp.password", isSecret: true, default: "huddle-dev-mail")
        )
        mechanisms = reader.string(forKey: "standin.smtp.auth", default: "PLAIN LOGIN")
        implicitTLS = reader.string(forKey: "standin.smtp.tls", default: "starttls") == "implicit"
        self.recorder = recorder
        self.logger = logger
        self.onListening = onListening
        identity = try await StandInCertificate.make(hosts: ["localhost", "127.0.0.1", "stand-in"])
        if let file = reader.string(forKey: "standin.smtp.cert.file") {
            try identity.certificatePEM.write(toFile: file, atomically: true, encoding: .utf8)
        }
        await recorder.setCertificate(identity.certificatePEM)
    }

    public func run() async throws {
        let implicitTLS = self.implicitTLS, tls = try tlsContext()
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if implicitTLS { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineBasedFrameDecoder()))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        await onListening(server.channel.localAddress?.port ?? port)
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await server.executeThenClose { connections in
                    for try await connection in connections {
                        group.addTask { await serve(connection) }
                    }
                }
            }
        } onGracefulShutdown: {
            server.channel.close(promise: nil)
        }
    }

    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                var lines = inbound.makeAsyncIterator()
                func say(_ text: String) async throws { try await outbound.write(ByteBuffer(string: text + "\r\n")) }
                if await recorder.turnsAway() {
                    try await say("421 stand-in relay down for maintenance")
                    return
                }
                try await say("220 stand-in ESMTP ready")
                var secure = implicitTLS, authenticated = false
                var sender: String?, recipients: [String] = []
                while let buffer = try await lines.next() {
                    let line = String(buffer: buffer)
                    let verb = line.split(separator: " ").first.map { $0.uppercased() } ?? ""
                    switch verb {
                    case "EHLO", "HELO":
                        try await say("250-stand-in")
                        if !secure { try await say("250-STARTTLS") }
                        try await say("250-AUTH \(mechanisms)")
                        try await say("250 8BITMIME")
                    case "STARTTLS":
                        try await say("220 go ahead")
                        try await connection.channel.pipeline.addHandler(NIOSSLServerHandler(context: try tlsContext()), position: .first)
                            .get()
                        secure = true
                    case "AUTH":
                        authenticated = try await authenticate(line, lines: &lines, say: say)
                        try await say(authenticated ? "235 2.7.0 accepted" : "535 5.7.8 credentials refused")
                    case "MAIL":
                        guard authenticated else {
                            try await say("530 5.7.0 authentication required")
                            continue
                        }
                        sender = Self.address(in: line)
                        recipients = []
                        try await say("250 OK")
                    case "RCPT":
                        guard sender != nil, let recipient = Self.address(in: line) else {
                            try await say("503 MAIL first")
                            continue
                        }
                        recipients.append(recipient)
                        try await say("250 OK")
                    case "DATA":
                        guard let from = sender, !recipients.isEmpty else {
                            try await say("503 RCPT first")
                            continue
                        }
                        try await say("354 end with <CRLF>.<CRLF>")
                        var data: [String] = [], ended = false
                        while !ended, let part = try await lines.next() {
                            let text = String(buffer: part)
                            ended = text == "."
                            if !ended { data.append(text.hasPrefix(".") ? String(text.dropFirst()) : text) }
                        }
                        // A sender that went away before the final dot sent no message (RFC 5321 §4.1.1.4).
                        guard ended else { return }
                        await recorder.record(ReceivedMail.parse(data, from: from, to: recipients, at: Effects.system.now()))
                        sender = nil
                        recipients = []
                        try await say("250 OK queued")
                    case "RSET":
                        sender = nil
                        recipients = []
                        try await say("250 OK")
                    case "NOOP": try await say("250 OK")
                    case "QUIT":
                        try await say("221 bye")
                        return
                    default: try await say("502 command not implemented")
                    }
                }
            }
        } catch {
            logger.debug("SMTP stand-in connection ended: \(error)")
        }
    }

    private func tlsContext() throws -> NIOSSLContext {
        try NIOSSLContext(
            configuration: .makeServerConfiguration(
                certificateChain: [.certificate(identity.certificate)], privateKey: .privateKey(identity.privateKey)))
    }

    /// `AUTH PLAIN <base64>`, `AUTH PLAIN` then the base64 on its own line, or `AUTH LOGIN` then the
    /// user and the password each on a line of their own.
    private func authenticate(
        _ line: String, lines: inout NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator, say: (String) async throws -> Void
    ) async throws -> Bool {
        let parts = line.split(separator: " ").map(String.init)
        func decoded(_ text: String) -> String { Data(base64Encoded: text).map { String(decoding: $0, as: UTF8.self) } ?? "" }
        func next() async throws -> String { try await lines.next().map { String(buffer: $0) } ?? "" }
        switch parts.dropFirst().first?.uppercased() {
        case "PLAIN":
            var response = parts.count > 2 ? parts[2] : ""
            if response.isEmpty {
                try await say("334 ")
                response = try await next()
            }
            let fields = decoded(response).split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
            return fields.count == 3 && fields[1] == credentials.user && fields[2] == credentials.password
        case "LOGIN":
            try await say("334 VXNlcm5hbWU6")
            let user = decoded(try await next())
            try await say("334 UGFzc3dvcmQ6")
            let password = decoded(try await next())
            return user == credentials.user && password == credentials.password
        default:
            return false
        }
    }

    /// `MAIL FROM:<a@b.c> SIZE=…` → `a@b.c`.
    static func address(in line: String) -> String? {
        guard let open = line.firstIndex(of: "<"), let close = line[open...].firstIndex(of: ">") else { return nil }
        return String(line[line.index(after: open)..<close])
    }
}
