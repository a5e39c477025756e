public import Contracts

/// The moderation console (`GET /admin`): server-rendered pages for moderators at a desk.
/// The browser holds a console session cookie of its own (HttpOnly, SameSite=Strict, path `/admin`);
/// the access and refresh tokens stay on the server, so no token reaches a URL, a page or a script.
/// Every form carries the session's anti-forgery token. What a moderator can put right (a wrong
/// password, a case another moderator closed, a missing reason) is answered as a page with the
/// problem's status; anything else as problem+json.
public enum ConsoleAPI {
    public static let queue = Endpoint<Anyone, NoBody, HTMLPage>(
        .get, "/admin", owner: .moderation,
        summary: "The console: the sign-in page, or for a signed-in moderator the cases, oldest first (open by default)",
        query: [ModerationAPI.caseStatus, ModerationAPI.overdue] + Query.paging, problems: [.forbidden])
    public static let signIn = Endpoint<Anyone, ConsoleSignInForm, SeeOther>(
        .post, "/admin/sign-in", owner: .moderation,
        summary: "Sign in to the console with a moderator's email and password; 303 to the queue with the session cookie set. "
            + "403 when the form's token is not the sign-in page's, or the account is not a moderator's",
        status: 303, problems: [.invalidCredentials, .forbidden, .accountSuspended, .tooManyAttempts, .dependencyUnavailable])
    public static let signOut = Endpoint<Anyone, ConsoleForm, SeeOther>(
        .post, "/admin/sign-out", owner: .moderation,
        summary: "End the console session (and its auth session); 303 to the sign-in page", status: 303, problems: [.forbidden])
    public static let showCase = Endpoint<Anyone, NoBody, HTMLPage>(
        .get, "/admin/cases/{id}", owner: .moderation,
        summary: "One case: the content as reported, its context, the reports, the owner's history, the audit trail and the "
            + "form to decide it; 303 to the sign-in page without a console session",
        problems: [.forbidden], otherAnswers: [303: SeeOther.self])
    public static let act = Endpoint<Anyone, ConsoleActionForm, SeeOther>(
        .post, "/admin/cases/{id}/actions", owner: .moderation,
        summary: "Decide a case from the console; 303 to the queue. 409 CASE_CLOSED when another moderator decided it first",
        status: 303, problems: [.forbidden, .caseClosed, .dependencyUnavailable])
    public static let audit = Endpoint<Anyone, NoBody, HTMLPage>(
        .get, "/admin/audit", owner: .moderation,
        summary: "The audit trail: every decision, newest first, with its moderator and reason; 303 to the sign-in page "
            + "without a console session",
        query: Query.paging, problems: [.forbidden], otherAnswers: [303: SeeOther.self])

    public static let all: [APIOperation] = [
        queue.operation, signIn.operation, signOut.operation, showCase.operation, act.operation, audit.operation,
    ]

    /// The console session cookie, and the one that carries the sign-in page's anti-forgery token.
    public static let sessionCookie = "huddle_console"
    public static let signInCookie = "huddle_console_signin"
}

/// A `text/html` page.
public struct HTMLPage: Codable, Sendable, Equatable, SchemaDescribed {
    public var html: String
    public init(_ html: String) { self.html = html }
    public init(from decoder: any Decoder) throws { html = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(html)
    }
    public static var schema: JSONSchema { .string }
    public static var schemaSample: HTMLPage { HTMLPage("") }
}

/// A 303 See Other to `Location`, without a body: where a form sends the browser next.
public struct SeeOther: Codable, Sendable, Equatable {
    public var location: String
    public init(_ location: String) { self.location = location }
}

/// Marks a request body sent as `application/x-www-form-urlencoded`, as a browser's form sends it.
public protocol FormBody {}

/// A console form that carries nothing but its anti-forgery token.
public struct ConsoleForm: Codable, Sendable, Equatable, FormBody, FieldConstraints {
    public var csrf: String
    public init(csrf: String) { self.csrf = csrf }
    public static var constraints: [String: JSONSchema] { ["csrf": .text(1...ConsoleLimits.token)] }
}

/// `POST /admin/sign-in`.
public struct ConsoleSignInForm: Codable, Sendable, Equatable, FormBody, FieldConstraints {
    public var csrf: String
    public var email: String
    public var password: String
    /// The authenticator's code, for a moderator with a second factor on.
    public var code: String?
    public init(csrf: String, email: String, password: String, code: String? = nil) {
        self.csrf = csrf
        self.email = email
        self.password = password
        self.code = code
    }
    public static var constraints: [String: JSONSchema] {
        ["csrf": .text(1...ConsoleLimits.token), "email": .text(1...254), "password": .text(1...1024), "code": .text(0...32)]
    }
}

/// `POST /admin/cases/{id}/actions`: the decision's form. A suspension lasts `suspendDays` from now;
/// `removeMessages` (a checkbox) goes with suspend and ban.
public struct ConsoleActionForm: Codable, Sendable, Equatable, FormBody, FieldConstraints {
    public var csrf: String
    public var action: ModerationAction
    public var reason: String
    public var suspendDays: SuspensionLength?
    public var removeMessages: Bool?
    public init(
        csrf: String, action: ModerationAction, reason: String, suspendDays: SuspensionLength? = nil, removeMessages: Bool? = nil
    ) {
        self.csrf = csrf
        self.action = action
        self.reason = reason
        self.suspendDays = suspendDays
        self.removeMessages = removeMessages
    }
    /// The reason's length only: the decision holds it to the rule for typed text, and the case's page
    /// then says what is wrong with it.
    public static var constraints: [String: JSONSchema] {
        ["csrf": .text(1...ConsoleLimits.token), "reason": .text(1...ModerationLimits.reason.length.upperBound)]
    }
}

/// How long the console suspends a player for, in days.
public enum SuspensionLength: String, Codable, Sendable, CaseIterable, WireEnum {
    case oneDay = "1", threeDays = "3", week = "7", month = "30"
    public var days: Int { Int(rawValue) ?? 1 }
}

public enum ConsoleLimits {
    /// Anti-forgery tokens are 44 characters (32 random bytes, base64url); anything longer is not one.
    public static let token = 64
}
