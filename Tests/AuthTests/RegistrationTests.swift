import Contracts
import Foundation
import NIOHTTP1
import ServiceKitTesting
import Testing

@Suite("Registration and sign-in")
struct RegistrationTests {
    @Test("registering returns a session whose token opens the profile", arguments: TestStore.all)
    func registerThenMe(store: TestStore) async throws {
        try await AuthHarness.with(store: store) { auth, _ in
            let response = try await auth.call(
                AuthAPI.register, body: RegisterRequest(email: "  Ana@Example.COM ", password: "long enough pw", name: "Ana"))
            #expect(response.status == 201)
            let session = try response.decode(Session.self)
            #expect(session.user.email == "ana@example.com")
            #expect(session.expiresIn == 900)
            #expect(session.refreshToken.count >= 43)
            let me = try await auth.call(AuthAPI.me, token: session.accessToken)
            #expect(me.status == 200)
            let profile = try me.decode(MyProfile.self)
            #expect(profile.id == session.user.id)
            #expect(profile.name == "Ana")
            #expect(me.text.contains(session.user.id.description))
        }
    }

    @Test("an email can be registered once, whatever its case", arguments: TestStore.all)
    func duplicateEmail(store: TestStore) async throws {
        try await AuthHarness.with(store: store) { auth, _ in
            _ = try await auth.register(email: "dup@example.com")
            let again = try await auth.call(
                AuthAPI.register, body: RegisterRequest(email: "DUP@example.com", password: "another long pw", name: "B"))
            #expect(again.status == 409)
            #expect(again.problem?.code == "EMAIL_TAKEN")
            #expect(again.header("Content-Type") == "application/problem+json")
        }
    }

    /// On PostgreSQL registrations of one email at once all passed the lookup, and the inserts after
    /// the first failed inside their transactions (500s).
    @Test("sixteen registrations of one email at once make one account; the others are told it is taken", arguments: TestStore.all)
    func duplicateEmailAtOnce(store: TestStore) async throws {
        try await AuthHarness.with(store: store) { auth, _ in
            let answers = try await (0..<16).concurrentMap { index in
                try await auth.call(
                    AuthAPI.register, body: RegisterRequest(email: "same@example.com", password: "long enough pw", name: "P\(index)"))
            }
            #expect(answers.filter { $0.status == 201 }.count == 1)
            #expect(answers.filter { $0.status == 409 && $0.problem?.code == "EMAIL_TAKEN" }.count == 15)
            let session = try #require(answers.first { $0.status == 201 }).decode(Session.self)
            #expect(try await auth.call(AuthAPI.me, token: session.accessToken).status == 200)
        }
    }

    @Test("bad registrations are refused with the fields named")
    func validation() async throws {
        try await AuthHarness.with { auth, _ in
            let short = try await auth.call(AuthAPI.register, body: RegisterRequest(email: "x@example.com", password: "short", name: "X"))
            #expect(short.status == 422)
            #expect(short.problem?.errors?.map(\.field) == ["password"])

            let everything = try await auth.call(
                AuthAPI.register, body: RegisterRequest(email: "not-an-email", password: "short", name: " "))
            // Every field at once, the email's form among them (it is in the document's schema).
            #expect(Set(everything.problem?.errors?.map(\.field) ?? []) == ["email", "password", "name"])
            #expect(everything.problem?.errors?.first { $0.field == "email" }?.message == "must be an email address")
            let email = try await auth.call(
                AuthAPI.register, body: RegisterRequest(email: "not-an-email", password: "long enough password", name: "X"))
            #expect(email.problem?.errors?.map(\.field) == ["email"])
            for refused in ["a@.b.co", "a@b.co.", "a b@c.co", "@b.co", "a@bco"] {
                let answer = try await auth.call(
                    AuthAPI.register, body: RegisterRequest(email: refused, password: "long enough password", name: "X"))
                #expect(answer.problem?.errors?.map(\.field) == ["email"], "\(refused)")
            }
            // Blanks around an address are the keyboard's: trimmed, as before.
            #expect(
                try await auth.call(
                    AuthAPI.register, body: RegisterRequest(email: " ann@b.co ", password: "long enough password", name: "Ann")
                ).status == 201)

            let missing = try await auth.call(AuthAPI.register, rawBody: Data(#"{"email":"a@b.co"}"#.utf8))
            #expect(missing.status == 422)
            #expect(missing.problem?.errors?.first?.field == "password")

            let wrongType = try await auth.call(AuthAPI.register, rawBody: Data(#"{"email":"a@b.co","password":12,"name":"A"}"#.utf8))
            #expect(wrongType.status == 422)
            #expect(wrongType.problem?.errors?.first?.field == "password")

            let notJSON = try await auth.call(AuthAPI.register, rawBody: Data("{nope".utf8))
            #expect(notJSON.status == 400)
            #expect(notJSON.problem?.code == "MALFORMED_BODY")

            // Nothing half-written: the refused email is still free.
            _ = try await auth.register(email: "x@example.com")
        }
    }

    @Test("a wrong password and an unknown email get the same answer", arguments: TestStore.all)
    func noEnumeration(store: TestStore) async throws {
        try await AuthHarness.with(store: store) { auth, _ in
            _ = try await auth.register(email: "known@example.com", password: "right password")
            let wrong = try await auth.call(AuthAPI.login, body: LoginRequest(email: "known@example.com", password: "wrong password"))
            let unknown = try await auth.call(AuthAPI.login, body: LoginRequest(email: "nobody@example.com", password: "wrong password"))
            #expect(wrong.status == 401)
            #expect(unknown.status == 401)
            #expect(wrong.body == unknown.body)
            let right = try await auth.call(AuthAPI.login, body: LoginRequest(email: "KNOWN@example.com", password: "right password"))
            #expect(right.status == 200)
        }
    }

    @Test("guesses sent together are throttled as if one after another: of ten at once, three are tried", arguments: TestStore.all)
    func throttlingUnderConcurrency(store: TestStore) async throws {
        try await AuthHarness.with(store: store) { auth, _ in
            _ = try await auth.register(email: "target@example.com", password: "right password")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await auth.call(
                            AuthAPI.login, body: LoginRequest(email: "target@example.com", password: "guess guess"),
                            headers: ["X-Forwarded-For": "203.0.113.9"]
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 401 }.count == 3, "\(statuses.sorted())")
            #expect(statuses.filter { $0 == 429 }.count == 7, "\(statuses.sorted())")
        }
    }

    @Test("failed sign-ins slow the address that made them; the account's owner, elsewhere, still signs in")
    func throttling() async throws {
        try await AuthHarness.with { auth, _ in
            _ = try await auth.register(email: "target@example.com", password: "right password")
            func login(_ password: String, from address: String, email: String = "target@example.com") async throws -> TestClient.Response {
                try await auth.call(
                    AuthAPI.login, body: LoginRequest(email: email, password: password), headers: ["X-Forwarded-For": address])
            }
            for _ in 0..<3 { #expect(try await login("guess guess", from: "203.0.113.7").status == 401) }
            let slowed = try await login("right password", from: "203.0.113.7")
            #expect(slowed.status == 429)
            #expect(slowed.problem?.code == "TOO_MANY_ATTEMPTS")
            let retryAfter = try #require(slowed.header("Retry-After").flatMap(Int.init))
            #expect((1...2).contains(retryAfter))
            #expect(slowed.header("RateLimit-Policy") == #""sign-in";q=3;w=900"#)
            #expect(slowed.header("RateLimit") == "\"sign-in\";r=0;t=\(retryAfter)")
            // The owner, from their own address, is not locked out by a stranger who knows the email.
            #expect(try await login("right password", from: "198.51.100.20").status == 200)
            // An unknown email is slowed the same way: the answers do not tell which emails have accounts.
            for _ in 0..<3 { #expect(try await login("guess guess", from: "203.0.113.7", email: "nobody@example.com").status == 401) }
            #expect(try await login("guess guess", from: "203.0.113.7", email: "nobody@example.com").status == 429)
            // Other accounts are unaffected.
            _ = try await auth.register(email: "other@example.com", password: "right password")
            let other = try await auth.call(AuthAPI.login, body: LoginRequest(email: "other@example.com", password: "right password"))
            #expect(other.status == 200)
        }
    }
}
