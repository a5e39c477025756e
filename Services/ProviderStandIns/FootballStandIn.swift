import Foundation
import HTTPTypes
import HuddleEffects
import Hummingbird
import NIOConcurrencyHelpers

/// API-Football v3, as the stand-in answers it:
///
/// - `GET /fixtures?date=YYYY-MM-DD`, `?live=all`, `?ids=1-2-3` (at most 20; with events, lineups and
///   statistics), `GET /odds?fixture=` (market "Match Winner"), `GET /predictions?fixture=` (the chances
///   a test set, or else the odds' implied ones). Header `x-apisports-key` must be the
///   configured key; a missing or wrong one gets the provider's `200` with `errors.token`. Every answer
///   carries the provider's rate-limit headers; more than the per-minute allowance gets 429.
/// - Test controls: `POST /test/football/fixtures {home, away, kickoff, league?, odds?, prediction?}` → `{id}`;
///   `POST /test/football/fixtures/{id}/status {status, elapsed?}`;
///   `POST /test/football/fixtures/{id}/events {type, detail, team: home|away, player, elapsed}`;
///   `PUT /test/football/fixtures/{id}/odds {home, draw, away}`; `PUT /test/football/fixtures/{id}/prediction
///   {home, draw, away}` (percent); `GET /test/football/requests`, the
///   calls answered and who made them.
struct FootballStandIn: Sendable {
    let feed = FootballFeed()
    let requests = ProviderRequestLog()
    let key: String
    let limiter: MinuteAllowance

    init(key: String, perMinute: Int) {
        self.key = key
        limiter = MinuteAllowance(limit: perMinute)
    }

    /// Plays a simulated matchday from `seed`, starting now, or continues the one `file` says began
    /// earlier from the same seed and is not over yet: a restarted stand-in goes on with its day
    /// (same fixtures, same ids, each where its script has reached) instead of starting a second
    /// beside the first, whose match in play would never be reported again.
    func simulate(seed: UInt64, speed: Double, continuing file: String? = nil, now: Date = Effects.system.now()) async {
        struct Begun: Codable {
            var seed: UInt64
            var start: Date
        }
        var start = now
        if let file, let data = FileManager.default.contents(atPath: file),
            let begun = try? JSONDecoder().decode(Begun.self, from: data), begun.seed == seed,
            now < Matchday.lastWhistle(start: begun.start, speed: speed)
        {
            start = begun.start
        }
        if let file, let data = try? JSONEncoder().encode(Begun(seed: seed, start: start)) {
            FileManager.default.createFile(atPath: file, contents: data)
        }
        await feed.add(Matchday(seed: seed, start: start, speed: speed))
        await feed.advance(to: now)
    }

    func add(to router: Router<BasicRequestContext>) {
        router.get("fixtures") { request, _ in try await answer(request, "fixtures") { try await fixtures(for: $0) } }
        router.get("odds") { request, _ in
            try await answer(request, "odds") { query -> Outcome<APIFootball.Odds> in
                guard let id = query["fixture"].flatMap(Int.init) else { return .refused(["fixture": "The Fixture field is required."]) }
                return .items((await feed.fixture(id)?.wireOdds).map { [$0] } ?? [])
            }
        }
        router.get("predictions") { request, _ in
            try await answer(request, "predictions") { query -> Outcome<APIFootball.Prediction> in
                guard let id = query["fixture"].flatMap(Int.init) else { return .refused(["fixture": "The Fixture field is required."]) }
                return .items((await feed.fixture(id)?.wirePrediction).map { [$0] } ?? [])
            }
        }
        FootballControls(feed: feed, requests: requests).add(to: router)
    }

    enum Outcome<Item: Encodable> {
        case items([Item])
        case refused([String: String])
    }

    private func fixtures(for query: [String: String]) async throws -> Outcome<APIFootball.Fixture> {
        if let ids = query["ids"] {
            let parsed = ids.split(separator: "-").compactMap { Int($0) }
            guard !parsed.isEmpty, parsed.count <= 20 else { return .refused(["ids": "Maximum of 20 fixtures ids."]) }
            return .items(await feed.fixtures(ids: parsed).map { $0.wire(detailed: true) })
        }
        if query["live"] == "all" { return .items(await feed.live().map { $0.wire(detailed: false) }) }
        if let date = query["date"] {
            guard date.count == 10, FootballFixture.day(of: ISO8601DateFormatter().date(from: date + "T00:00:00Z") ?? .distantPast) == date
            else { return .refused(["date": "The Date field do not match the format Y-m-d."]) }
            return .items(await feed.fixtures(on: date).map { $0.wire(detailed: false) })
        }
        return .refused(["required": "At least one parameter is required."])
    }

    /// The key check, the rate limit and the envelope every call shares.
    private func answer<Item: Encodable>(
        _ request: Request, _ name: String, _ body: ([String: String]) async throws -> Outcome<Item>
    ) async throws -> Response {
        let query = Dictionary(
            request.uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { _, last in last })
        await feed.advance(to: Effects.system.now())
        requests.record(name, client: request.headers[.userAgent] ?? "")
        let (allowed, remaining) = limiter.take()
        var headers: HTTPFields = [.contentType: "application/json"]
        let limits = [
            ("X-RateLimit-Limit", String(limiter.limit)), ("X-RateLimit-Remaining", String(remaining)),
            ("x-ratelimit-requests-limit", "7500"), ("x-ratelimit-requests-remaining", "7400"),
        ]
        for (name, value) in limits { if let name = HTTPField.Name(name) { headers[name] = value } }
        func send(_ envelope: APIFootball.Envelope<Item>, _ status: HTTPResponse.Status) throws -> Response {
            Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(envelope))))
        }
        guard allowed else {
            headers[.retryAfter] = "60"
            return try send(
                .init(
                    get: name, parameters: query,
                    errors: ["rateLimit": "Too many requests. Your rate limit is \(limiter.limit) requests per minute."], response: []),
                .tooManyRequests)
        }
        guard await !feed.isDown else {
            return Response(
                status: .serviceUnavailable, headers: [.contentType: "text/html"],
                body: .init(byteBuffer: ByteBuffer(string: "<h1>503 Service Temporarily Unavailable</h1>")))
        }
        guard request.headers.first(where: { $0.name.canonicalName == "x-apisports-key" })?.value == key else {
            let message =
                "Error/Missing application key. Go to https://www.api-football.com/documentation-v3 to learn how to get your API application key."
            return try send(.init(get: name, parameters: query, errors: ["token": message], response: []), .ok)
        }
        switch try await body(query) {
        case .items(let items): return try send(.init(get: name, parameters: query, errors: [:], response: items), .ok)
        case .refused(let errors): return try send(.init(get: name, parameters: query, errors: errors, response: []), .ok)
        }
    }
}

/// The provider's per-minute allowance, counted in calendar minutes as it counts them.
final class MinuteAllowance: Sendable {
    let limit: Int
    private let used = NIOLockedValueBox((minute: 0, count: 0))

    init(limit: Int) { self.limit = limit }

    /// Whether this call is allowed, and how many are left in the minute.
    func take(now: Date = Effects.system.now()) -> (allowed: Bool, remaining: Int) {
        let minute = Int(now.timeIntervalSince1970 / 60)
        return used.withLockedValue { state in
            if state.minute != minute { state = (minute, 0) }
            guard state.count < limit else { return (false, 0) }
            state.count += 1
            return (true, limit - state.count)
        }
    }
}
