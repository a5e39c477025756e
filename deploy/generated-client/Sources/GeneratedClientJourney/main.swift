// A player's first minutes, through a client Apple's swift-openapi-generator made from the live
// `/openapi.json`: register, sign in wrongly and rightly, create a team and find it among mine,
// search games near two places (one answer shows a game's place, the other hides it), and read the
// day's matches and fixtures. Every answer is decoded by the generated types with the generator's
// default date transcoder; the journey fails on the first answer that does not decode or says
// something else than the stack should.
import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct JourneyFailure: Error, CustomStringConvertible {
    let description: String
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw JourneyFailure(description: message()) }
}

func found<Item>(_ items: [Item], _ what: String, where matches: (Item) -> Bool) throws -> Item {
    guard let item = items.first(where: matches) else { throw JourneyFailure(description: "no \(what) among \(items.count)") }
    return item
}

/// Adds the access token to every request, as an app's middleware would.
struct BearerToken: ClientMiddleware {
    let token: String

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

let gateway = URL(string: CommandLine.arguments.dropFirst().first ?? "http://127.0.0.1:8080")!

func journey() async throws {
    let anonymous = Client(serverURL: gateway, transport: URLSessionTransport())

    // Register, then a wrong password: a problem the generated type reads.
    let email = "generated-\(UUID().uuidString.prefix(8).lowercased())@example.com"
    let password = "a long enough password"
    let registered = try await anonymous.postAuthRegister(body: .json(.init(email: email, name: "Gen Erated", password: password)))
    let session = try registered.created.body.json
    try check(session.user.email == email, "registered as \(session.user.email)")

    let refused = try await anonymous.postAuthLogin(body: .json(.init(email: email, password: "not the password")))
    guard case .unauthorized(let unauthorized) = refused else { throw JourneyFailure(description: "a wrong password answered \(refused)") }
    let problem = try unauthorized.body.applicationProblemJson
    try check(problem.status == 401, "the problem says status \(problem.status)")
    let signedIn = try await anonymous.postAuthLogin(body: .json(.init(email: email, password: password))).ok.body.json

    let client = Client(serverURL: gateway, transport: URLSessionTransport(), middlewares: [BearerToken(token: signedIn.accessToken)])
    let me = try await client.getUsersMe().ok.body.json
    try check(me.name == "Gen Erated", "me is \(me.name)")

    // A team of mine, found among my teams.
    let team = try await client.postTeams(
        body: .json(
            .init(
                ageGroup: .adult, gender: .coed, location: .init(address: "Kadriorg, Tallinn", lat: 59.4381, lng: 24.7924),
                name: "Generated Eleven", privacy: ._public, skill: .intermediate, sport: .soccer))
    ).created.body.json
    let mine = try await client.getTeams(query: .init(member: .me)).ok.body.json
    try check(mine.items.contains { $0.id == team.id }, "my teams do not list \(team.id)")

    // Games near Tallinn: the demo's protected game, its place hidden (location absent, a distance
    // given). Near Cranbourne: the demo's public game, its place shown. Their times were written with
    // and without milliseconds before; both decode now.
    let tallinn = try await client.getSearchGames(query: .init(lat: 59.437, lng: 24.75, radiusKm: 20)).ok.body.json
    let hidden = try found(tallinn.items, "a protected game near Tallinn") { $0.privacy == .protected }
    try check(hidden.location == nil && hidden.distanceMeters != nil, "a protected game's place showed: \(hidden)")
    let cranbourne = try await client.getSearchGames(query: .init(lat: -38.1066, lng: 145.2815, radiusKm: 5)).ok.body.json
    let shown = try found(cranbourne.items, "a public game near Cranbourne") { $0.privacy == ._public }
    try check(shown.location != nil && shown.privacy == ._public, "a public game's place was hidden: \(shown)")
    try check(shown.createdAt <= Date() && shown.startsAt > shown.createdAt, "times read as \(shown.createdAt), \(shown.startsAt)")

    // Today's matches and fixtures, whatever the feed has: each decodes, odds or not.
    let matches = try await client.getMatches().ok.body.json
    let fixtures = try await client.getBettingFixtures().ok.body.json
    try check(matches.items.count == fixtures.items.count, "\(matches.items.count) matches but \(fixtures.items.count) fixtures today")

    print(
        "generated client: registered \(email), created a team, found \(tallinn.items.count) + \(cranbourne.items.count) games, "
            + "read \(matches.items.count) matches and \(fixtures.items.count) fixtures")
}

do {
    try await journey()
} catch {
    print("generated client journey failed: \(error)")
    exit(1)
}
