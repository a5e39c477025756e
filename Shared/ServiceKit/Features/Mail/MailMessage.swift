public import Foundation

/// One mail as it leaves Huddle: a text part and, when given, an HTML part of the same content,
/// with the headers a relay and a mail client expect (RFC 5322 and MIME, RFC 2045–2047).
public struct MailMessage: Sendable, Equatable, Codable {
    public var from: MailAddress
    public var to: MailAddress
    public var subject: String
    public var text: String
    public var html: String?
    /// `<…@domain>`: made once when the mail is queued, so every attempt sends the same mail.
    public var messageID: String
    public var date: Date

    public init(from: MailAddress, to: MailAddress, subject: String, text: String, html: String?, messageID: String, date: Date) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.messageID = messageID
        self.date = date
    }

    /// A new id in the sender's domain.
    public static func newMessageID(from sender: MailAddress) -> String {
        "<\(UUID().uuidString.lowercased())@\(sender.domain)>"
    }

    /// The message as sent after DATA: CRLF line ends, each part base64 in lines of 76, so any text
    /// (any language, any line length) passes any relay unchanged.
    public func rendered() -> String {
        var headers = [
            "Date: \(Self.rfc5322Date(date))",
            "From: \(from.header)",
            "To: \(to.header)",
            "Subject: \(MailHeader.encoded(subject))",
            "Message-ID: \(messageID)",
            "MIME-Version: 1.0",
        ]
        guard let html else {
            headers += ["Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: base64"]
            return (headers + ["", Self.base64Lines(text)]).joined(separator: "\r\n") + "\r\n"
        }
        let boundary = "huddle-" + messageID.filter { $0.isLetter || $0.isNumber }
        headers.append("Content-Type: multipart/alternative; boundary=\"\(boundary)\"")
        let parts = [("text/plain", text), ("text/html", html)].map { type, body in
            [
                "--\(boundary)", "Content-Type: \(type); charset=utf-8", "Content-Transfer-Encoding: base64", "",
                Self.base64Lines(body),
            ]
            .joined(separator: "\r\n")
        }
        return (headers + ["", parts.joined(separator: "\r\n"), "--\(boundary)--"]).joined(separator: "\r\n") + "\r\n"
    }

    static func base64Lines(_ text: String) -> String {
        let encoded = Data(text.utf8).base64EncodedString()
        return stride(from: 0, to: encoded.count, by: 76).map { start in
            let from = encoded.index(encoded.startIndex, offsetBy: start)
            return String(encoded[from..<(encoded.index(from, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex)])
        }
        .joined(separator: "\r\n")
    }

    /// `Sat, 05 Dec 2026 14:44:46 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}

/// An address with an optional display name: `Huddle <no-reply@huddle.dev>`.
public struct MailAddress: Sendable, Equatable, Codable {
    public var name: String?
    public var email: String

    public init(_ email: String, name: String? = nil) {
        self.email = email
        self.name = name
    }

    /// `Huddle <no-reply@huddle.dev>` or `no-reply@huddle.dev`, as `mail.from` gives it.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let open = trimmed.lastIndex(of: "<"), trimmed.hasSuffix(">") {
            let name = trimmed[..<open].trimmingCharacters(in: .whitespaces)
            self.init(
                String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]), name: name.isEmpty ? nil : name)
        } else {
            self.init(trimmed)
        }
        guard email.contains("@"), !email.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" }) else { return nil }
    }

    var domain: String { email.split(separator: "@").last.map(String.init) ?? "localhost" }

    var header: String {
        guard let name, !name.isEmpty else { return email }
        return "\(MailHeader.encoded(name)) <\(email)>"
    }
}

/// Header text beyond ASCII as RFC 2047 encoded words (`=?UTF-8?B?…?=`), each at most 75
/// characters and whole characters, folded onto lines of their own; ASCII as it is.
enum MailHeader {
    static func encoded(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }
        if plain { return text }
        var words: [String] = [], chunk = ""
        for character in text {
            // 45 bytes of UTF-8 make 60 of base64: with `=?UTF-8?B?` and `?=`, 72.
            if chunk.utf8.count + String(character).utf8.count > 45 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        words.append(chunk)
        return words.map { "=?UTF-8?B?\(Data($0.utf8).base64EncodedString())?=" }.joined(separator: "\r\n ")
    }
}
