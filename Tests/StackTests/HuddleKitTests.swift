import Contracts
import Foundation
import HuddleKit
import NIOConcurrencyHelpers
import ServiceKitTesting
import Testing

/// HuddleKit against the whole stack, through the gateway, as an app uses it.
@Suite("HuddleKit", .serialized)
struct HuddleKitTests {
    static func client(
        _ gateway: TestClient, transport: any HTTPTransport = URLSessionTransport(), tokens: any TokenStore = InMemoryTokenStore()
    )
        -> HuddleClient
    {
        HuddleClient(
            baseURL: URL(string: gateway.baseURL)!, transport: transport, tokens: tokens,
            retry: RetryPolicy(retries: 3, baseDelay: .milliseconds(20), maxDelay: .milliseconds(200)))
    }

    static func email() -> String { "kit-\(UUID().uuidString.prefix(8).lowercased())@example.com" }

    /// A new player ("Kit Player") signed in, with the store that keeps the session.
    static func signedIn(_ gateway: TestClient) async throws -> (HuddleClient, InMemoryTokenStore, Session) {
        let tokens = InMemoryTokenStore()
        let app = client(gateway, tokens: tokens)
        try await app.register(email: email(), password: "kit password 1", name: "Kit Player")
        return (app, tokens, try #require(await tokens.load()).session)
    }

    @Test("ten calls on an expired access token share one refresh, and all succeed")
    func oneRefreshForTen() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let (_, _, session) = try await Self.signedIn(gateway)
            // The same session, kept by an app that last ran long ago: its access token has expired.
            let counter = CountingTransport()
            let app = Self.client(
                gateway, transport: counter,
                tokens: InMemoryTokenStore(StoredSession(session: session, accessTokenExpiresAt: .distantPast)))
            let names = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<10 { group.addTask { try await app.send(AuthAPI.me).name } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(names == Array(repeating: "Kit Player", count: 10))
            #expect(counter.count(of: AuthAPI.refresh.path()) == 1)
        }
    }

    @Test("a 401 is answered by one refresh and the call is made again")
    func refreshAfterRefusal() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            var (_, _, session) = try await Self.signedIn(gateway)
            session.accessToken = "not-a-token"
            let counter = CountingTransport()
            let app = Self.client(
                gateway, transport: counter,
                tokens: InMemoryTokenStore(StoredSession(session: session, accessTokenExpiresAt: .distantFuture)))
            #expect(try await app.send(AuthAPI.me).name == "Kit Player")
            #expect(counter.count(of: AuthAPI.refresh.path()) == 1)
        }
    }

    @Test("a refresh token reused after rotation ends the session and tells the app")
    func reusedRefreshTokenEndsSession() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let (app, _, stolen) = try await Self.signedIn(gateway)
            // The app refreshes (rotation); then a copy of the old refresh token is used.
            _ = try await app.send(AuthAPI.refresh, body: RefreshRequest(refreshToken: stolen.refreshToken))
            let copyStore = InMemoryTokenStore(StoredSession(session: stolen, accessTokenExpiresAt: .distantPast))
            let copy = Self.client(gateway, tokens: copyStore)
            let events = await copy.sessionEvents()
            let error = await #expect(throws: HuddleError.self) { try await copy.send(AuthAPI.me) }
            #expect(error?.kind == .sessionEnded)
            #expect(error?.is(.invalidRefreshToken) == true)
            var iterator = events.makeAsyncIterator()
            #expect(await iterator.next() == .ended)
            #expect(await copyStore.load() == nil)
            #expect(await copy.currentUser == nil)
        }
    }

    @Test("a create retried after its answer was lost makes one team, not two")
    func retriedCreateHappensOnce() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let dropping = DroppingTransport(dropAnswerOf: CatalogAPI.createTeam.path())
            let app = Self.client(gateway, transport: dropping)
            try await app.register(email: Self.email(), password: "kit password 1", name: "Maria Manager")
            let request = CreateTeamRequest(
                name: "Retry Rovers", sport: .volleyball, privacy: .public, location: Location(lat: 59.437, lng: 24.7536),
                ageGroup: .adult, gender: .coed, skill: .any)
            let team = try await app.send(CatalogAPI.createTeam, body: request)
            #expect(dropping.dropped == 1)
            var mine: [Team] = []
            for try await team in app.pages(CatalogAPI.teams, query: CatalogAPI.teamMember(.me)) { mine.append(team) }
            #expect(mine.map(\.id) == [team.id])
        }
    }

    @Test("signing out ends the session here and on the server, and tells the app")
    func signOut() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let (app, tokens, session) = try await Self.signedIn(gateway)
            let token = session.accessToken
            let events = await app.sessionEvents()
            await app.signOut()
            var iterator = events.makeAsyncIterator()
            #expect(await iterator.next() == .signedOut)
            #expect(await app.currentUser == nil)
            #expect(await tokens.load() == nil)
            let error = await #expect(throws: HuddleError.self) { try await app.send(AuthAPI.me) }
            #expect(error?.kind == .notSignedIn)
            // Refused by every instance within its revocation poll when requests reach several.
            #expect(try await eventually(within: .seconds(3)) { try await gateway.call(AuthAPI.me, token: token).status == 401 })
        }
    }

    @Test("problems arrive as one typed error with the code, the fields and the request id")
    func typedErrors() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let app = Self.client(gateway)
            let notSignedIn = await #expect(throws: HuddleError.self) { try await app.send(AuthAPI.me) }
            #expect(notSignedIn?.kind == .notSignedIn)
            let error = await #expect(throws: HuddleError.self) {
                try await app.register(email: "not an email", password: "short", name: "")
            }
            #expect(error?.status == 422 && error?.is(.validationFailed) == true)
            #expect(Set(error?.fieldErrors.map(\.field) ?? []) == ["email", "password", "name"])
            #expect(error?.requestID?.isEmpty == false)
        }
    }
}

/// Counts the requests that reach the network, by path.
final class CountingTransport: HTTPTransport {
    private let inner = URLSessionTransport()
    private let paths = NIOLockedValueBox<[String]>([])

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        paths.withLockedValue { $0.append(request.url.path) }
        return try await inner.send(request)
    }

    func count(of path: String) -> Int { paths.withLockedValue { $0.filter { $0 == path }.count } }
}

/// Sends the first POST to `path`, then loses its answer, as a dropped connection would.
final class DroppingTransport: HTTPTransport {
    private let inner = URLSessionTransport()
    private let path: String
    private let drops = NIOLockedValueBox(0)

    init(dropAnswerOf path: String) { self.path = path }

    var dropped: Int { drops.withLockedValue { $0 } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await inner.send(request)
        let drop = drops.withLockedValue { count in
            guard request.method == "POST", request.url.path == path, count == 0 else { return false }
            count += 1
            return true
        }
        if drop { throw TransportFailure("connection reset before the answer") }
        return response
    }
}
