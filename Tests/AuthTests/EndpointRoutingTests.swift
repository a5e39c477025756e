import Contracts
import Foundation
import NIOHTTP1
import ServerContracts
import ServiceKitTesting
import Testing

/// What registering handlers against descriptions gives every service, seen through auth.
@Suite("Described routes")
struct EndpointRoutingTests {
    @Test("a wrong method on a described path is 405 with Allow, as problem+json; an unknown path stays 404")
    func wrongMethod() async throws {
        try await AuthHarness.with { auth, _ in
            let wrong = try await auth.raw(.DELETE, "/v1/auth/register")
            #expect(wrong.status == 405)
            #expect(wrong.header("Allow") == "POST")
            #expect(wrong.header("Content-Type") == Problem.mediaType)
            #expect(wrong.problem?.code == ProblemCode.methodNotAllowed.code)

            let follow = try await auth.raw(.POST, AuthAPI.follow.path(UserID()))
            #expect(follow.status == 405)
            #expect(follow.header("Allow") == "PUT, DELETE")

            let query = try await auth.raw(.RAW(value: "QUERY"), "/v1/users/me")
            #expect(query.status == 405)
            #expect(query.header("Allow") == "GET, HEAD, PATCH, DELETE")
            // HEAD is answered wherever GET is: here, as GET would, a 401 without a token.
            #expect(try await auth.raw(.HEAD, "/v1/users/me").status == 401)

            #expect(try await auth.raw(.GET, "/v1/auth/nothing-here").status == 404)
        }
    }

    @Test("a described operation answers its described success status and type")
    func describedAnswer() async throws {
        try await AuthHarness.with { auth, _ in
            let body = RegisterRequest(email: "desc@example.com", password: "a long password", name: "Desc")
            let created = try await auth.call(AuthAPI.register, body: body)
            #expect(created.status == AuthAPI.register.operation.successStatus)
            let session = try created.decode(Session.self)
            let logout = try await auth.call(AuthAPI.logout, token: session.accessToken)
            #expect(logout.status == 204)
            #expect(logout.body.isEmpty)
        }
    }

    @Test("internal operations need the internal credential")
    func internalCredential() async throws {
        try await AuthHarness.with { auth, _ in
            let refused = try await auth.withoutCredential.call(AuthAPI.Internal.revokedSessions)
            #expect(refused.status == 401)
        }
    }
}
