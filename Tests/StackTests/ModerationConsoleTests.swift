import Contracts
import Foundation
import NIOHTTP1
import ServerContracts
import ServiceKitTesting
import Testing

/// The moderation console (`/admin`) through the gateway, as a browser uses it. The same journey runs
/// in headless Chromium in CI (`deploy/console`); here each refusal is checked on both stores.
/// Serialized, like the moderation suite: each test runs a whole stack.
@Suite("The moderation console through the gateway", .serialized)
struct ModerationConsoleTests {
    @Test(
        "a moderator signs in, opens the oldest case, removes the message and signs out; forms without their token, from another site or from a player are refused; the pages carry the console's policy and no token",
        arguments: StackTests.stores)
    func moderatorWorksACase(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let suffix = UUID().uuidString.prefix(6).lowercased()
            let admin = try await StackTests.administrator(gateway)
            let troll = try await gateway.register(name: "Troll \(suffix)"), ann = try await gateway.register(name: "Ann \(suffix)")
            let global = try #require(try await gateway.value(ChatAPI.rooms, token: troll.accessToken).items.first { $0.kind == .global })
            let said = try await gateway.value(
                ChatAPI.send, global.id, body: SendChatMessage(text: "buy boots \(suffix)", clientMessageId: "boots-\(suffix)"),
                token: troll.accessToken)
            _ = try await gateway.value(
                ModerationAPI.report, body: ReportRequest(subject: .message(said.id), reason: .spam), token: ann.accessToken)

            // The sign-in page: the console's policy, and an anti-forgery token in its form and in a cookie.
            let browser = ConsoleBrowser(gateway)
            let signIn = try await browser.get("/admin")
            #expect(signIn.status == 200 && signIn.headers.first(name: "Content-Type")?.hasPrefix("text/html") == true)
            let policy = try #require(signIn.headers.first(name: "Content-Security-Policy"))
            #expect(
                policy.contains("default-src 'none'") && policy.contains("script-src 'sha256-") && policy.contains("frame-ancestors 'none'")
            )
            #expect(signIn.headers.first(name: "X-Frame-Options") == "DENY" && signIn.headers.first(name: "Cache-Control") == "no-store")
            let signInCookie = try #require(signIn.setCookie(ConsoleAPI.signInCookie))
            #expect(signInCookie.contains("HttpOnly") && signInCookie.contains("SameSite=Strict") && signInCookie.contains("Path=/admin"))
            let token = try #require(signIn.csrf)

            // Refused: another site's form, a form without the page's token, a wrong password, a player who is not a moderator.
            func signInForm(_ email: String, _ password: String, csrf: String = token) -> [(String, String)] {
                [("csrf", csrf), ("email", email), ("password", password)]
            }
            let adminForm = signInForm(admin.user.email, StackTests.administratorPassword)
            #expect(try await browser.post("/admin/sign-in", adminForm, site: "cross-site").status == 403)
            #expect(
                try await browser.post("/admin/sign-in", signInForm(admin.user.email, StackTests.administratorPassword, csrf: "forged"))
                    .status == 403)
            let again = try #require(try await browser.get("/admin").csrf)
            // A wrong password for a player's address: a wrong one for the administrator's would count towards the
            // throttle every suite signing in as the administrator at once shares.
            // A sign-in hashes the password: under a full suite on two cores the gateway may give up on it
            // (504) or auth be busy (503); a phone would try again, and so does the test.
            var wrong = try await browser.post("/admin/sign-in", signInForm(ann.user.email, "not the password", csrf: again))
            for _ in 0..<5 where [503, 504].contains(wrong.status) {
                let fresh = try #require(try await browser.get("/admin").csrf)
                wrong = try await browser.post("/admin/sign-in", signInForm(ann.user.email, "not the password", csrf: fresh))
            }
            #expect(wrong.status == 401, "\(wrong.status): \(wrong.html.prefix(300))")
            #expect(wrong.html.contains(#"id="error""#) && wrong.html.contains(ann.user.email))
            let asPlayer = try await browser.post(
                "/admin/sign-in", signInForm(ann.user.email, "correct horse battery", csrf: try #require(wrong.csrf)))
            #expect(asPlayer.status == 403 && asPlayer.setCookie(ConsoleAPI.sessionCookie) == nil)

            // The administrator signs in: a session cookie, and nothing that looks like a token on any page. Other
            // suites sign in as the administrator at the same moment; a throttled sign-in (429) waits out its
            // Retry-After, as a moderator would.
            var signedIn = try await browser.post(
                "/admin/sign-in", signInForm(admin.user.email, StackTests.administratorPassword, csrf: try #require(asPlayer.csrf)))
            for _ in 0..<5 where signedIn.status == 429 {
                try await Task.sleep(for: .seconds(min(5, signedIn.headers.first(name: "Retry-After").flatMap(Int.init) ?? 1)))
                signedIn = try await browser.post(
                    "/admin/sign-in",
                    signInForm(admin.user.email, StackTests.administratorPassword, csrf: try #require(signedIn.csrf)))
            }
            #expect(signedIn.status == 303 && signedIn.location == "/admin")
            let sessionCookie = try #require(signedIn.setCookie(ConsoleAPI.sessionCookie))
            #expect(sessionCookie.contains("HttpOnly") && sessionCookie.contains("SameSite=Strict"))
            let queue = try await browser.get("/admin")
            #expect(queue.status == 200 && queue.html.contains("Open cases") && !queue.html.contains("eyJ"))
            let caseID = try #require(
                try await gateway.value(ModerationAPI.cases, query: Query.limit(100), token: admin.accessToken).items.first {
                    $0.subject == .message(said.id)
                }?.id)
            #expect(queue.html.contains("/admin/cases/\(caseID)") && queue.html.contains("buy boots \(suffix)"))

            // The case, then the decision: refused without the session's token, taken with it.
            let casePage = try await browser.get("/admin/cases/\(caseID)")
            #expect(casePage.status == 200 && casePage.html.contains(#"id="decide""#) && !casePage.html.contains("eyJ"))
            let csrf = try #require(casePage.csrf)
            let remove = [("action", "remove"), ("reason", "Advertising \(suffix)"), ("suspendDays", "7")]
            #expect(try await browser.post("/admin/cases/\(caseID)/actions", [("csrf", "forged")] + remove).status == 403)
            #expect(try await browser.post("/admin/cases/\(caseID)/actions", [("csrf", csrf)] + remove, site: "cross-site").status == 403)
            let noReason = try await browser.post(
                "/admin/cases/\(caseID)/actions", [("csrf", csrf), ("action", "remove"), ("reason", " ")])
            #expect(noReason.status == 422 && noReason.html.contains(#"id="error""#))
            // A control character in it (a NUL was a 500 on PostgreSQL) is shown the same way.
            let controlReason = try await browser.post(
                "/admin/cases/\(caseID)/actions", [("csrf", csrf), ("action", "remove"), ("reason", "bad\u{0}reason")])
            #expect(controlReason.status == 422 && controlReason.html.contains(#"id="error""#) && controlReason.html.contains("control"))
            let decided = try await browser.post("/admin/cases/\(caseID)/actions", [("csrf", csrf)] + remove)
            #expect(decided.status == 303 && decided.location == "/admin/cases/\(caseID)")
            let closedAgain = try await browser.post(
                "/admin/cases/\(caseID)/actions", [("csrf", csrf), ("action", "dismiss"), ("reason", "late")])
            #expect(closedAgain.status == 409 && closedAgain.html.contains("removed"))

            // The app and the reporter see the result.
            // Chat applies the decision from moderation's event.
            #expect(
                try await eventually {
                    try await gateway.value(ChatAPI.messages, global.id, token: ann.accessToken).items.first { $0.id == said.id }?.deleted
                        == true
                })
            #expect(try await gateway.value(ModerationAPI.myReports, token: ann.accessToken).items.first?.status == .actioned)
            // The reporter is told.
            #expect(
                try await eventually {
                    try await gateway.value(NotifyAPI.inbox, token: ann.accessToken).items.contains {
                        $0.category == .moderation && $0.body.contains("removed the message")
                    }
                })
            // The player whose message it was is told why.
            #expect(
                try await eventually {
                    try await gateway.value(NotifyAPI.inbox, token: troll.accessToken).items.contains {
                        $0.category == .moderation && $0.body == "A moderator removed your message: Advertising \(suffix)"
                    }
                })
            let audit = try await browser.get("/admin/audit")
            #expect(audit.status == 200 && audit.html.contains("Advertising \(suffix)") && audit.html.contains("Stack Admin"))

            // Signing out ends the session: its cookie, kept by a copy, opens nothing.
            let stolen = try #require(await browser.cookies[ConsoleAPI.sessionCookie])
            let signOut = try await browser.post("/admin/sign-out", [("csrf", csrf)])
            #expect(signOut.status == 303 && signOut.location == "/admin")
            await browser.set(ConsoleAPI.sessionCookie, stolen)
            #expect(try await browser.get("/admin").html.contains(#"id="sign-in""#))
            #expect(try await browser.get("/admin/cases/\(caseID)").status == 303)
        }
    }

    @Test("a moderator whose role is taken back, or whose sessions end, is out of the console at once", arguments: StackTests.stores)
    func consoleFollowsTheRoleAndTheSession(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let admin = try await StackTests.administrator(gateway)
            let mia = try await gateway.register(name: "Mia Moderator")
            _ = try await gateway.value(ModerationAPI.grantModerator, mia.user.id, token: admin.accessToken)

            func signedIn() async throws -> ConsoleBrowser {
                let browser = ConsoleBrowser(gateway)
                let token = try #require(try await browser.get("/admin").csrf)
                let answer = try await browser.post(
                    "/admin/sign-in", [("csrf", token), ("email", mia.user.email), ("password", "correct horse battery")])
                #expect(answer.status == 303)
                #expect(try await browser.get("/admin").html.contains("Open cases"))
                return browser
            }
            let first = try await signedIn()
            _ = try await gateway.value(ModerationAPI.revokeModerator, mia.user.id, token: admin.accessToken)
            #expect(try await first.get("/admin").status == 403)

            // Deleting the account ends every auth session, the one the console holds too.
            _ = try await gateway.value(ModerationAPI.grantModerator, mia.user.id, token: admin.accessToken)
            let second = try await signedIn()
            let miaAgain = try await gateway.value(
                AuthAPI.login, body: LoginRequest(email: mia.user.email, password: "correct horse battery"))
            _ = try await gateway.value(
                AuthAPI.deleteMe, body: DeleteAccountRequest(password: "correct horse battery"), token: miaAgain.accessToken)
            // The console session ends with the account.
            #expect(try await eventually { try await second.get("/admin").html.contains(#"id="sign-in""#) })
        }
    }

    @Test(
        "the console refreshes the auth session it holds once the access token expires, once for requests at the same moment",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func consoleRefreshesItsSession(store: TestStore) async throws {
        // Four seconds: a refreshed token must outlive the request that refreshed it, and under the full
        // suite on PostgreSQL a request waiting on the session's row lock took over a second.
        try await StackTests.withStack(store: store, config: ["auth.access.lifetime.ms": "4000"]) { gateway in
            let admin = try await StackTests.administrator(gateway)
            let browser = ConsoleBrowser(gateway)
            let token = try #require(try await browser.get("/admin").csrf)
            let answer = try await browser.post(
                "/admin/sign-in", [("csrf", token), ("email", admin.user.email), ("password", StackTests.administratorPassword)])
            #expect(answer.status == 303)
            // Past the token's expiry, which JWT verification reads off the wall clock.
            try await Task.sleep(for: .milliseconds(4100))
            async let first = browser.get("/admin")
            async let second = browser.get("/admin")
            #expect(try await [first, second].allSatisfy { $0.status == 200 && $0.html.contains("Open cases") })
            // Refreshed once: a refresh token used twice would have ended the auth session.
            #expect(try await browser.get("/admin/audit").html.contains("Audit trail"))
        }
    }
}
