import Contracts
import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import ServerContracts
import ServiceHTTP

/// `/admin...`: the moderation console. Pages without a console session lead to the sign-in page;
/// every form is refused unless it carries its session's anti-forgery token (the sign-in form, the
/// token of the cookie set with the sign-in page), and unless the browser says it came from this
/// site when it says where it came from (`Sec-Fetch-Site`). Every answer carries the console's
/// Content-Security-Policy and is never cached.
struct ConsoleController: Controller {
    let sessions: ConsoleSessions
    let cases: Cases
    let people: PeopleNames
    let responseTime: TimeInterval
    /// Cookies marked `Secure`: always (`moderation.console.cookie.secure`), or when the request came
    /// over HTTPS to the edge (`X-Forwarded-Proto: https`).
    let secureCookies: Bool
    let templates: MustacheLibrary
    let now: @Sendable () -> Date
    /// How many cases, or decisions, a page shows.
    static let pageSize = 50

    func register(on router: Router<HuddleRequestContext>) {
        router.page(ConsoleAPI.queue, use: queue)
        router.form(ConsoleAPI.signIn, use: signIn)
        router.form(ConsoleAPI.signOut, use: signOut)
        router.page(ConsoleAPI.showCase, use: showCase)
        router.form(ConsoleAPI.act, use: act)
        router.page(ConsoleAPI.audit, use: audit)
    }

    /// `GET /admin`
    @Sendable func queue(_ request: Request, _ context: HuddleRequestContext) async throws -> PageAnswer {
        try await answer(request) { pages in
            guard let session = try await session(of: request) else { return signInPage(request, pages) }
            let status = try request.query(ModerationAPI.caseStatus)
            let overdue = try request.query(ModerationAPI.overdue) ?? false
            let page = try await cases.queue(status, overdue: overdue, page: try PageRequest(request), for: session.identity)
            return .page(pages.queue(page, status: status, overdue: overdue, session: header(session)))
        }
    }

    /// `POST /admin/sign-in`
    @Sendable func signIn(_ form: ConsoleSignInForm, _ request: Request, _ context: HuddleRequestContext) async throws -> PageAnswer {
        try await answer(request) { pages in
            try checkOrigin(request)
            guard let expected = request.cookies[ConsoleAPI.signInCookie]?.value, ConsoleSessions.same(form.csrf, expected) else {
                throw CommonError.forbidden("This sign-in form has expired: sign in again.")
            }
            do {
                let (cookie, _) = try await sessions.signIn(
                    email: form.email, password: form.password, code: form.code, requestID: context.requestID)
                var headers = HTTPFields()
                headers.append(
                    HTTPField(name: .setCookie, value: self.cookie(ConsoleAPI.sessionCookie, cookie, request: request).description))
                headers.append(HTTPField(name: .setCookie, value: expired(ConsoleAPI.signInCookie, request: request)))
                return .seeOther("/admin", headers: headers)
            } catch let problem as any ProblemError where Self.shownAsPage.contains(problem.problem.status) {
                return signInPage(request, pages, email: form.email, error: problem.problem, status: problem.problem.status)
            }
        }
    }

    /// `POST /admin/sign-out`
    @Sendable func signOut(_ form: ConsoleForm, _ request: Request, _ context: HuddleRequestContext) async throws -> PageAnswer {
        try await answer(request) { _ in
            try checkOrigin(request)
            if let session = try await session(of: request) {
                guard ConsoleSessions.same(form.csrf, session.csrf) else {
                    throw CommonError.forbidden("This form has expired: reload the page.")
                }
                try await sessions.signOut(session, requestID: context.requestID)
            }
            return .seeOther("/admin", headers: [.setCookie: expired(ConsoleAPI.sessionCookie, request: request)])
        }
    }

    /// `GET /admin/cases/{id}`
    @Sendable func showCase(_ request: Request, _ context: HuddleRequestContext) async throws -> PageAnswer {
        try await answer(request) { pages in
            // The id is checked before the session, so a malformed one is a 404 for anyone.
            let id = try context.parameters.id(CaseID.self)
            guard let session = try await session(of: request) else { return .seeOther("/admin") }
            let item = try await cases.one(id, for: session.identity)
            return .page(pages.caseDetail(item, names: await people.named(in: item), session: header(session)))
        }
    }

    /// `POST /admin/cases/{id}/actions`
    @Sendable func act(_ form: ConsoleActionForm, _ request: Request, _ context: HuddleRequestContext) async throws -> PageAnswer {
        try await answer(request) { pages in
            let id = try context.parameters.id(CaseID.self)
            try checkOrigin(request)
            guard let session = try await session(of: request), ConsoleSessions.same(form.csrf, session.csrf) else {
                throw CommonError.forbidden("This form has expired: reload the page, or sign in again.")
            }
            let decision = CaseActionRequest(
                action: form.action, reason: form.reason,
                until: form.action == .suspend
                    ? now().addingTimeInterval(TimeInterval((form.suspendDays ?? .oneDay).days * 86_400)) : nil,
                removeMessages: form.action == .suspend || form.action == .ban ? form.removeMessages : nil)
            do {
                _ = try await cases.decide(id, decision, by: session.identity)
                return .seeOther("/admin/cases/\(id)")
            } catch let problem as any ProblemError where [409, 422].contains(problem.problem.status) {
                let item = try await cases.one(id, for: session.identity)
                return .page(
                    pages.caseDetail(
                        item, names: await people.named(in: item), session: header(session), error: Self.words(problem.problem)),
                    status: problem.problem.status)
            }
        }
    }

    /// `GET /admin/audit`
    @Sendable func audit(_ request: Request, _ context: HuddleRequestContext) async throws -> PageAnswer {
        try await answer(request) { pages in
            guard let session = try await session(of: request) else { return .seeOther("/admin") }
            let page = try PageRequest(request)
            let trail = try await cases.trail(before: try page.integerCursor(), limit: page.limit, for: session.identity)
            let names = await people.names(of: trail.map(\.action.moderatorId))
            let next =
                trail.count == page.limit
                ? trail.last.map { last in
                    ConsolePages.href("/admin/audit", [.init(name: "cursor", value: PageRequest.cursor("\(last.seq)"))])
                } : nil
            return .page(pages.audit(trail.map { pages.action(row: $0.action, names: names) }, next: next, session: header(session)))
        }
    }

    /// Problems a moderator can put right, shown on the page rather than as problem+json.
    static let shownAsPage: Set<Int> = [401, 403, 409, 422, 429]

    /// Runs a page's work and adds the console's headers to what it answers; a refusal a moderator
    /// can act on (not a moderator, a form that expired) becomes a page with the problem's status.
    private func answer(_ request: Request, _ work: (ConsolePages) async throws -> PageAnswer) async throws -> PageAnswer {
        let pages = ConsolePages(library: templates, now: now(), responseTime: responseTime)
        var answer: PageAnswer
        do {
            answer = try await work(pages)
        } catch let problem as any ProblemError where [403].contains(problem.problem.status) {
            answer = signInPage(request, pages, error: problem.problem, status: problem.problem.status)
        }
        answer.headers[.contentSecurityPolicy] = ConsoleTemplates.contentSecurityPolicy
        answer.headers[.cacheControl] = "no-store"
        answer.headers[.xFrameOptions] = "DENY"
        answer.headers[.xContentTypeOptions] = "nosniff"
        answer.headers[.referrerPolicy] = "no-referrer"
        answer.headers[.crossOriginOpenerPolicy] = "same-origin"
        return answer
    }

    /// The sign-in page, with a fresh anti-forgery token in its form and in a cookie beside it.
    private func signInPage(_ request: Request, _ pages: ConsolePages, email: String = "", error: Problem? = nil, status: Int = 200)
        -> PageAnswer
    {
        let token = ConsoleSessions.randomToken()
        return .page(
            pages.signIn(csrf: token, email: email, error: error.map(Self.words)), status: status,
            headers: [.setCookie: cookie(ConsoleAPI.signInCookie, token, request: request, maxAge: 3600).description])
    }

    private func session(of request: Request) async throws -> ConsoleSession? {
        try await sessions.current(cookie: request.cookies[ConsoleAPI.sessionCookie]?.value)
    }

    private func header(_ session: ConsoleSession) -> ConsolePages.Header { .init(csrf: session.csrf, name: session.name) }

    /// A browser that says where a form came from must say this site (`Sec-Fetch-Site`); the
    /// SameSite cookies and the anti-forgery token hold for one that does not say.
    private func checkOrigin(_ request: Request) throws {
        guard let site = request.headers.value(of: .secFetchSite) else { return }
        guard site == "same-origin" || site == "none" else {
            throw CommonError.forbidden("Forms are taken from the console's own pages only.")
        }
    }

    private func cookie(_ name: String, _ value: String, request: Request, maxAge: Int? = nil) -> Cookie {
        Cookie(
            name: name, value: value, maxAge: maxAge ?? Int(sessions.lifetime), path: "/admin", secure: isSecure(request), httpOnly: true,
            sameSite: .strict)
    }

    private func expired(_ name: String, request: Request) -> String {
        Cookie(name: name, value: "", maxAge: 0, path: "/admin", secure: isSecure(request), httpOnly: true, sameSite: .strict).description
    }

    private func isSecure(_ request: Request) -> Bool {
        secureCookies || request.headers.value(of: .xForwardedProto)?.lowercased() == "https"
    }

    static func words(_ problem: Problem) -> String {
        ([problem.detail ?? problem.title] + (problem.errors ?? []).map { "\($0.field) \($0.message)" }).joined(separator: " ")
    }
}

extension HTTPField.Name {
    static let xFrameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
    static let secFetchSite = Self("Sec-Fetch-Site")!
    static let xForwardedProto = Self("X-Forwarded-Proto")!
}
