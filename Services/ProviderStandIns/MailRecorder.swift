public import Foundation
public import Hummingbird

/// What the SMTP stand-in accepted, newest first, and whether it is pretending to be down.
public actor MailRecorder {
    private var received: [ReceivedMail] = []
    private(set) var isDown = false
    /// Connections turned away with 421 since the outage began.
    private(set) var refused = 0
    /// The relay's certificate (PEM), for a sender to trust.
    private(set) var certificatePEM: String?

    public init() {}

    func record(_ mail: ReceivedMail) { received.insert(mail, at: 0) }

    /// Every mail to `address` (any case), or every mail; newest first.
    public func mails(to address: String?) -> [ReceivedMail] {
        guard let address = address?.lowercased() else { return received }
        return received.filter { $0.to.contains { $0.lowercased() == address } }
    }

    func setDown(_ down: Bool) {
        isDown = down
        refused = 0
    }

    /// Whether to turn a new connection away, counting it when so.
    func turnsAway() -> Bool {
        if isDown { refused += 1 }
        return isDown
    }

    func setCertificate(_ pem: String) { certificatePEM = pem }

    /// `GET /test/mail?to=` → `{items:[{from,to,subject,text,html?,messageId,receivedAt}]}`;
    /// `POST /test/mail/outage {down}` → 204; `GET /test/mail/outage` → `{down, refused}` (connections
    /// turned away since it began); `GET /test/mail/certificate` → the relay's certificate (PEM).
    public nonisolated func add(to router: Router<BasicRequestContext>) {
        router.get("test/mail") { request, _ -> MailList in
            MailList(items: await self.mails(to: request.uri.queryParameters["to"].map(String.init)))
        }
        router.get("test/mail/certificate") { _, _ -> String in
            guard let pem = await self.certificatePEM else { throw HTTPError(.serviceUnavailable, message: "no relay has started") }
            return pem
        }
        router.get("test/mail/outage") { _, _ -> Outage in
            Outage(down: await self.isDown, refused: await self.refused)
        }
        router.post("test/mail/outage") { request, context -> HTTPResponse.Status in
            struct Outage: Decodable { var down: Bool }
            await self.setDown(try await request.decode(as: Outage.self, context: context).down)
            return .noContent
        }
    }

    struct Outage: ResponseEncodable {
        var down: Bool
        var refused: Int
    }

    struct MailList: ResponseEncodable {
        var items: [ReceivedMail]
    }
}

/// A mail as the stand-in took it: the envelope, and the message's subject and parts decoded.
public struct ReceivedMail: Codable, Sendable {
    public var from: String
    public var to: [String]
    public var subject: String
    public var text: String
    public var html: String?
    public var messageId: String?
    public var receivedAt: Date

    /// The DATA lines (dot-stuffing undone): headers, a blank line, then a single base64 text part
    /// or a multipart/alternative of text and HTML, as `MailMessage.rendered()` writes them.
    static func parse(_ lines: [String], from: String, to: [String], at now: Date) -> ReceivedMail {
        let (headers, body) = MIMEPart.split(lines)
        var text = "", html: String?
        if let boundary = MIMEPart.boundary(in: headers["content-type"] ?? "") {
            for part in MIMEPart.parts(of: body, boundary: boundary) {
                let (partHeaders, partBody) = MIMEPart.split(part)
                let content = MIMEPart.decoded(partBody, encoding: partHeaders["content-transfer-encoding"])
                if partHeaders["content-type"]?.hasPrefix("text/html") == true { html = content } else { text = content }
            }
        } else {
            text = MIMEPart.decoded(body, encoding: headers["content-transfer-encoding"])
        }
        return ReceivedMail(
            from: from, to: to, subject: MIMEPart.decodedWords(headers["subject"] ?? ""), text: text, html: html,
            messageId: headers["message-id"], receivedAt: now)
    }
}

/// Just enough MIME to read what Huddle sends.
enum MIMEPart {
    /// Headers by lower-cased name (folded lines joined) and the lines after the blank one.
    static func split(_ lines: [String]) -> (headers: [String: String], body: [String]) {
        var headers: [String: String] = [:], last: String?
        for (index, line) in lines.enumerated() {
            if line.isEmpty { return (headers, Array(lines[(index + 1)...])) }
            if line.first == " " || line.first == "\t", let last {
                headers[last, default: ""] += " " + line.trimmingCharacters(in: .whitespaces)
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                last = name
            }
        }
        return (headers, [])
    }

    static func boundary(in contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/"), let range = contentType.range(of: "boundary=") else { return nil }
        return contentType[range.upperBound...].split(separator: ";").first.map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        }
    }

    static func parts(of body: [String], boundary: String) -> [[String]] {
        var parts: [[String]] = [], current: [String]?
        for line in body {
            if line == "--\(boundary)" || line == "--\(boundary)--" {
                if let current { parts.append(current) }
                current = line.hasSuffix("--") && line != "--\(boundary)" ? nil : []
            } else {
                current?.append(line)
            }
        }
        return parts
    }

    static func decoded(_ lines: [String], encoding: String?) -> String {
        guard encoding?.lowercased() == "base64" else { return lines.joined(separator: "\n") }
        return Data(base64Encoded: lines.joined()).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// `=?UTF-8?B?…?= =?UTF-8?B?…?=` → the text; plain text as it is.
    static func decodedWords(_ header: String) -> String {
        let words = header.split(separator: " ")
        guard words.allSatisfy({ $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") }) else { return header }
        return words.map { word in
            Data(base64Encoded: String(word.dropFirst("=?UTF-8?B?".count).dropLast(2))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        .joined()
    }
}
