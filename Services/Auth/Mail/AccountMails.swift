import Contracts
import Foundation
import Mustache
import ServiceFeatures
import ServiceHTTP

/// The mails auth sends, in the language of the member they go to: their words from
/// `Resources/Mails.xcstrings` (a String Catalog, as translators edit an app's), laid out by two
/// Mustache templates, a text version (`{{{ }}}`: as written) and an HTML one (`{{ }}` escapes) for a
/// mail with a link and for a notice. Both are parsed once at start, and auth refuses to start
/// without its words, so a template or catalogue that does not load stops it with the reason.
struct AccountMails: Sendable {
    private let library: MustacheLibrary
    private let words: TextCatalogue

    init() throws {
        var library = MustacheLibrary()
        for (name, text) in Self.templates { try library.register(text, named: name) }
        self.library = library
        words = TextCatalogue(contentsOf: Bundle.module.url(forResource: "Mails", withExtension: "xcstrings"))
        guard !words.isEmpty else {
            throw MissingConfiguration(
                key: "auth mails", hint: "Mails.xcstrings, in the AuthService resources beside the executable, could not be read")
        }
    }

    /// The reset link and the token itself (for an app that asks for it to be pasted).
    func passwordReset(name: String, link: String, token: String, minutes: Int, in language: Language) -> MailContent {
        linked("passwordReset", name: name, link: link, token: token, closing: [minutes], language)
    }

    /// Told after a reset or a change, so an owner who did not make it knows at once.
    func passwordChanged(name: String, in language: Language) -> MailContent {
        notice("passwordChanged", name: name, body: [], language)
    }

    /// The link (and token) that proves the address an account registered with.
    func verifyAddress(name: String, link: String, token: String, in language: Language) -> MailContent {
        linked("verifyAddress", name: name, link: link, token: token, language)
    }

    /// To a new address: the link (and token) that moves the account there.
    func confirmNewAddress(name: String, link: String, token: String, in language: Language) -> MailContent {
        linked("confirmNewAddress", name: name, link: link, token: token, language)
    }

    /// To the old address, when a move to another is asked for.
    func addressChanging(name: String, newAddress: String, in language: Language) -> MailContent {
        notice("addressChanging", name: name, body: [newAddress], language)
    }

    private func linked(
        _ mail: String, name: String, link: String, token: String, closing: [any CVarArg] = [], _ language: Language
    ) -> MailContent {
        render(
            "linked", subject: words.text("\(mail).subject", language),
            [
                "greeting": words.text("greeting", language, [name]), "intro": words.text("\(mail).intro", language), "link": link,
                "button": words.text("\(mail).button", language), "code": words.text("code", language, [token]),
                "closing": words.text("\(mail).closing", language, closing), "signature": words.text("signature", language),
                "lang": language.rawValue,
            ])
    }

    private func notice(_ mail: String, name: String, body: [any CVarArg], _ language: Language) -> MailContent {
        render(
            "notice", subject: words.text("\(mail).subject", language),
            [
                "greeting": words.text("greeting", language, [name]), "body": words.text("\(mail).body", language, body),
                "closing": words.text("\(mail).closing", language), "signature": words.text("signature", language),
                "lang": language.rawValue,
            ])
    }

    private func render(_ template: String, subject: String, _ values: [String: Any]) -> MailContent {
        MailContent(
            subject: subject, text: library.render(values, withTemplate: template + "Text") ?? "",
            html: library.render(values.merging(["subject": subject]) { given, _ in given }, withTemplate: template + "HTML"))
    }

    private static let templates = [
        ("layoutHTML", layout),
        (
            "linkedText",
            """
            {{{greeting}}}

            {{{intro}}}

            {{{link}}}

            {{{code}}}

            {{{closing}}}
            """
        ),
        (
            "linkedHTML",
            """
            {{<layoutHTML}}{{$body}}
            <p>{{greeting}}</p>
            <p>{{intro}}</p>
            <p><a href="{{link}}">{{button}}</a></p>
            <p>{{code}}</p>
            <p>{{closing}}</p>
            {{/body}}{{/layoutHTML}}
            """
        ),
        (
            "noticeText",
            """
            {{{greeting}}}

            {{{body}}}

            {{{closing}}}
            """
        ),
        (
            "noticeHTML",
            """
            {{<layoutHTML}}{{$body}}
            <p>{{greeting}}</p>
            <p>{{body}}</p>
            <p>{{closing}}</p>
            {{/body}}{{/layoutHTML}}
            """
        ),
    ]

    private static let layout = """
        <!doctype html>
        <html lang="{{lang}}"><head><meta charset="utf-8"><title>{{subject}}</title></head>
        <body style="font-family: -apple-system, Helvetica, Arial, sans-serif; line-height: 1.5; color: #1c1c1e">
        {{$body}}{{/body}}
        <p style="color: #8e8e93; font-size: 12px">{{signature}}</p>
        </body></html>
        """
}
