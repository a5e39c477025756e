import Foundation
import Mustache
import ServiceFeatures

/// The mails auth sends, as Mustache templates in a text version (`{{{ }}}`: as written) and an HTML
/// version (`{{ }}` escapes)
/// of each, parsed once at start so a template that does not parse stops auth with the parser's error.
/// In the source rather than in resource files, as the console's pages are, so every executable that
/// runs auth carries them.
struct AccountMails: Sendable {
    private let library: MustacheLibrary

    init() throws {
        var library = MustacheLibrary()
        for (name, text) in Self.templates { try library.register(text, named: name) }
        self.library = library
    }

    /// The reset link and the token itself (for an app that asks for it to be pasted).
    func passwordReset(name: String, link: String, token: String, minutes: Int) -> MailContent {
        render("passwordReset", subject: "Reset your Huddle password", ["name": name, "link": link, "token": token, "minutes": minutes])
    }

    /// Told after a reset or a change, so an owner who did not make it knows at once.
    func passwordChanged(name: String) -> MailContent {
        render("passwordChanged", subject: "Your Huddle password was changed", ["name": name])
    }

    /// The link (and token) that proves the address an account registered with.
    func verifyAddress(name: String, link: String, token: String) -> MailContent {
        render("verifyAddress", subject: "Confirm your email for Huddle", ["name": name, "link": link, "token": token])
    }

    /// To a new address: the link (and token) that moves the account there.
    func confirmNewAddress(name: String, link: String, token: String) -> MailContent {
        render("confirmNewAddress", subject: "Confirm your new email for Huddle", ["name": name, "link": link, "token": token])
    }

    /// To the old address, when a move to another is asked for.
    func addressChanging(name: String, newAddress: String) -> MailContent {
        render("addressChanging", subject: "Your Huddle email is being changed", ["name": name, "newAddress": newAddress])
    }

    private func render(_ template: String, subject: String, _ values: [String: Any]) -> MailContent {
        MailContent(
            subject: subject, text: library.render(values, withTemplate: template + "Text") ?? "",
            html: library.render(values.merging(["subject": subject]) { given, _ in given }, withTemplate: template + "HTML"))
    }

    private static let templates = [
        ("layoutHTML", layout),
        (
            "verifyAddressText",
            """
            Hi {{{name}}},

            Welcome to Huddle. To confirm this is your address, open:

            {{{link}}}

            or enter this code in the app: {{{token}}}

            If you did not make a Huddle account, ignore this mail.
            """
        ),
        (
            "verifyAddressHTML",
            """
            {{<layoutHTML}}{{$body}}
            <p>Hi {{name}},</p>
            <p>Welcome to Huddle. Confirm this is your address:</p>
            <p><a href="{{link}}">Confirm my email</a></p>
            <p>Or enter this code in the app: <code>{{token}}</code></p>
            <p>If you did not make a Huddle account, ignore this mail.</p>
            {{/body}}{{/layoutHTML}}
            """
        ),
        (
            "confirmNewAddressText",
            """
            Hi {{{name}}},

            To make this the address of your Huddle account, open:

            {{{link}}}

            or enter this code in the app: {{{token}}}

            Until then your account keeps its old address. If you did not ask, ignore this mail.
            """
        ),
        (
            "confirmNewAddressHTML",
            """
            {{<layoutHTML}}{{$body}}
            <p>Hi {{name}},</p>
            <p>To make this the address of your Huddle account:</p>
            <p><a href="{{link}}">Confirm my new email</a></p>
            <p>Or enter this code in the app: <code>{{token}}</code></p>
            <p>Until then your account keeps its old address. If you did not ask, ignore this mail.</p>
            {{/body}}{{/layoutHTML}}
            """
        ),
        (
            "addressChangingText",
            """
            Hi {{{name}}},

            Someone signed in to your Huddle account asked to move it to {{{newAddress}}}. It moves once that
            address confirms. If this was not you, change your password at once.
            """
        ),
        (
            "addressChangingHTML",
            """
            {{<layoutHTML}}{{$body}}
            <p>Hi {{name}},</p>
            <p>Someone signed in to your Huddle account asked to move it to <strong>{{newAddress}}</strong>. It moves once
            that address confirms.</p>
            <p>If this was not you, change your password at once.</p>
            {{/body}}{{/layoutHTML}}
            """
        ),
        (
            "passwordResetText",
            """
            Hi {{{name}}},

            Someone asked to reset the password of your Huddle account. To choose a new one, open:

            {{{link}}}

            or enter this code in the app: {{{token}}}

            It works once, for {{{minutes}}} minutes. If you did not ask, ignore this mail: your password stays as it is.
            """
        ),
        (
            "passwordResetHTML",
            """
            {{<layoutHTML}}{{$body}}
            <p>Hi {{name}},</p>
            <p>Someone asked to reset the password of your Huddle account.</p>
            <p><a href="{{link}}">Choose a new password</a></p>
            <p>Or enter this code in the app: <code>{{token}}</code></p>
            <p>It works once, for {{minutes}} minutes. If you did not ask, ignore this mail: your password stays as it is.</p>
            {{/body}}{{/layoutHTML}}
            """
        ),
        (
            "passwordChangedText",
            """
            Hi {{{name}}},

            The password of your Huddle account was just changed, and every other device was signed out.

            If this was not you, reset your password from the app's sign-in screen at once.
            """
        ),
        (
            "passwordChangedHTML",
            """
            {{<layoutHTML}}{{$body}}
            <p>Hi {{name}},</p>
            <p>The password of your Huddle account was just changed, and every other device was signed out.</p>
            <p>If this was not you, reset your password from the app's sign-in screen at once.</p>
            {{/body}}{{/layoutHTML}}
            """
        ),
    ]

    private static let layout = """
        <!doctype html>
        <html><head><meta charset="utf-8"><title>{{subject}}</title></head>
        <body style="font-family: -apple-system, Helvetica, Arial, sans-serif; line-height: 1.5; color: #1c1c1e">
        {{$body}}{{/body}}
        <p style="color: #8e8e93; font-size: 12px">Huddle</p>
        </body></html>
        """
}
