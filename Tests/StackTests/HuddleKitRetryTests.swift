import Contracts
import Foundation
import HuddleKit
import NIOConcurrencyHelpers
import Testing

/// Which calls HuddleKit repeats, and when, against a scripted transport.
@Suite("HuddleKit retries")
struct HuddleKitRetryTests {
    static func client(_ transport: ScriptedTransport) -> HuddleClient {
        HuddleClient(
            baseURL: URL(string: "http://huddle.test")!, transport: transport,
            retry: RetryPolicy(retries: 2, baseDelay: .milliseconds(1), maxDelay: .milliseconds(5)))
    }

    static let sports = Data(#"{"items":[{"id":"soccer","name":"Soccer"}],"nextCursor":null}"#.utf8)

    @Test("a GET is repeated after no answer, 503 and 429 (with Retry-After), then succeeds")
    func getIsRepeated() async throws {
        let transport = ScriptedTransport([
            .failure, .status(503, headers: [:]), .status(429, headers: ["Retry-After": "0"]),
            .status(200, headers: [:], body: Self.sports),
        ])
        let client = HuddleClient(
            baseURL: URL(string: "http://huddle.test")!, transport: transport,
            retry: RetryPolicy(retries: 3, baseDelay: .milliseconds(1), maxDelay: .milliseconds(5)))
        #expect(try await client.send(CatalogAPI.sports).items.map(\.id) == [.soccer])
        #expect(transport.requests.count == 4)
    }

    @Test("retries stop at the policy's count and report no answer")
    func retriesAreBounded() async throws {
        let transport = ScriptedTransport([.failure, .failure, .failure, .failure])
        let error = await #expect(throws: HuddleError.self) { try await Self.client(transport).send(CatalogAPI.sports) }
        #expect(error?.kind == .unreachable)
        #expect(transport.requests.count == 3)
    }

    @Test("a write without an Idempotency-Key is not repeated; one with it is, under the same key")
    func writesRepeatOnlyWithAKey() async throws {
        let login = ScriptedTransport([.failure, .failure])
        let refused = await #expect(throws: HuddleError.self) {
            try await Self.client(login).send(AuthAPI.login, body: LoginRequest(email: "a@b.co", password: "0123456789"))
        }
        #expect(refused?.kind == .unreachable)
        #expect(login.requests.count == 1)

        let session = Data(
            #"{"user":{"id":"7f1b3a3e-4a49-4d7e-9d49-2f0f2f5d8b11","email":"a@b.co","name":"A"},"accessToken":"t","refreshToken":"r","expiresIn":900}"#
                .utf8)
        let register = ScriptedTransport([.status(201, headers: [:], body: session)])
        let client = Self.client(register)
        try await client.register(email: "a@b.co", password: "0123456789", name: "A")
        let team = CreateTeamRequest(
            name: "Keyed", sport: .soccer, privacy: .public, location: Location(lat: 1, lng: 1), ageGroup: .any, gender: .any, skill: .any)
        register.script([.failure, .status(502, headers: [:])])
        _ = try? await client.send(CatalogAPI.createTeam, body: team)
        let keys = register.requests.dropFirst().map { $0.headers["Idempotency-Key"] }
        #expect(keys.count == 3 && keys.allSatisfy { $0 != nil } && Set(keys).count == 1)
    }

    @Test(
        "a list's query is written through its description's fields, the next page's cursor added; a field it does not list sends nothing")
    func typedQueries() async throws {
        let next = Data(#"{"items":[],"nextCursor":"bmV4dA"}"#.utf8), last = Data(#"{"items":[],"nextCursor":null}"#.utf8)
        let transport = ScriptedTransport([.status(200, headers: [:], body: next), .status(200, headers: [:], body: last)])
        for try await _ in Self.client(transport).pages(CatalogAPI.news, query: Query.sport(.volleyball) + Query.limit(5)) {}
        #expect(transport.requests.map(\.url.query) == ["sport=volleyball&limit=5", "sport=volleyball&limit=5&cursor=bmV4dA"])

        let mistaken = ScriptedTransport([])
        await #expect(throws: UnlistedQueryField(operation: "GET /v1/news", field: "q")) {
            try await Self.client(mistaken).send(CatalogAPI.news, query: CatalogAPI.teamText("spikers"))
        }
        #expect(mistaken.requests.isEmpty)
    }
}

/// Answers requests from a script: a transport failure, or a status with headers and a body.
final class ScriptedTransport: HTTPTransport {
    enum Step {
        case failure
        case status(Int, headers: [String: String], body: Data = Data())
    }

    private let state: NIOLockedValueBox<(steps: [Step], requests: [HTTPRequest])>

    init(_ steps: [Step]) { state = NIOLockedValueBox((steps, [])) }

    var requests: [HTTPRequest] { state.withLockedValue { $0.requests } }

    func script(_ steps: [Step]) { state.withLockedValue { $0.steps = steps } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let step = state.withLockedValue { state -> Step in
            state.requests.append(request)
            return state.steps.isEmpty ? .failure : state.steps.removeFirst()
        }
        switch step {
        case .failure: throw TransportFailure("scripted")
        case .status(let status, let headers, let body): return HTTPResponse(status: status, headers: headers, body: body)
        }
    }
}
