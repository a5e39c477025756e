import Contracts
import Foundation
import NIOHTTP1
import ServiceKitTesting
import Testing

/// What HTTP says a client may expect, through the gateway: the auth scheme in any case, a
/// challenge on every 401, HEAD wherever GET is, and problems in the project's own words.
@Suite("HTTP conventions through the gateway", StackTests.embeddedOnly)
struct HTTPConventionsTests {
    @Test("the Bearer scheme in any case; a 401 says how to authenticate, and whether the token was the problem")
    func authScheme() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let session = try await gateway.register(name: "Case Insensitive")
            for scheme in ["bearer", "BEARER", "Bearer"] {
                let me = try await gateway.call(AuthAPI.me, headers: ["Authorization": "\(scheme) \(session.accessToken)"])
                #expect(me.status == 200, "\(scheme)")
            }
            let forged = try await gateway.call(AuthAPI.me, headers: ["Authorization": "Bearer not.a.token"])
            #expect(forged.status == 401)
            #expect(forged.header("WWW-Authenticate") == #"Bearer realm="huddle", error="invalid_token""#)
            let anonymous = try await gateway.call(AuthAPI.me)
            #expect(anonymous.status == 401)
            #expect(anonymous.header("WWW-Authenticate") == #"Bearer realm="huddle""#)
        }
    }

    @Test("HEAD on a GET route answers GET's head without its body")
    func head() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let get = try await gateway.call(CatalogAPI.sports)
            let head = try await gateway.raw(.HEAD, "/v1/sports")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == get.header("Content-Length"))
            #expect(head.header("Content-Type") == get.header("Content-Type"))
            #expect(try await gateway.raw(.HEAD, "/v1/users/me").status == 401)
            #expect(try await gateway.raw(.HEAD, "/openapi.json").status == 200)
        }
    }

    @Test("bad values are named in the project's words, not the decoder's")
    func ownWords() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let token = try await gateway.register(name: "Careless Client").accessToken
            func problems<Body, Output>(_ endpoint: Endpoint<SignedIn, Body, Output>, _ json: String) async throws -> [Problem.FieldError] {
                let response = try await gateway.call(
                    endpoint, rawBody: Data(json.utf8), token: token, headers: ["Content-Type": "application/json"])
                #expect(response.status == 422, "\(json)")
                return response.problem?.errors ?? []
            }
            let team =
                #""name":"Quidditch Club","privacy":"public","location":{"lat":59.4,"lng":24.7},"ageGroup":"adult","gender":"coed","skill":"any""#
            let sport = try await problems(CatalogAPI.createTeam, "{\(team),\"sport\":\"quidditch\"}")
            #expect(sport.map(\.field) == ["sport"])
            #expect(sport.last?.message.hasPrefix("must be one of: soccer, volleyball") == true)
            #expect(sport.first?.message.contains("Sport") == false)

            let ticket = { (stake: String, selections: String) in #"{"stake":\#(stake),"selections":\#(selections)}"# }
            let stake = try await gateway.call(
                BettingAPI.placeTicket, rawBody: Data(ticket("10.5", "[]").utf8), token: token,
                headers: ["Content-Type": "application/json", "Idempotency-Key": "edge-1"])
            #expect(stake.status == 422)
            #expect(Set(stake.problem?.errors?.map(\.field) ?? []) == ["stake", "selections"])
            #expect(stake.problem?.errors?.first { $0.field == "stake" }?.message == "must be an integer")
            #expect(stake.problem?.errors?.first { $0.field == "selections" }?.message == "must have at least 1 item")

            let nested = try await problems(AuthAPI.matchFriends, #"{"facebookIds":{"a":1}}"#)
            #expect(nested.map(\.field) == ["facebookIds"])
            #expect(nested.first?.message == "must be an array")
        }
    }
}
