public import AsyncHTTPClient
public import Configuration
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceHTTP

/// API-Football v3 over HTTP, as every service that reads it calls it: `GET <base>/<resource>?…` with
/// the key in `x-apisports-key`, the remaining allowance read from its rate-limit headers, and its
/// refusals turned into `Failure`s a poller can act on (back off after 429, keep the last state while
/// it is down). Games reads fixtures through it, betting odds.
public struct APIFootballTransport: Sendable {
    public struct Settings: Sendable {
        public var baseURL: String
        public var key: String
        public var timeout: Duration
        public init(baseURL: String, key: String, timeout: Duration) {
            self.baseURL = baseURL
            self.key = key
            self.timeout = timeout
        }
        /// The provider as `<prefix>.url` (API-Football v3's base URL, `https://v3.football.api-sports.io`),
        /// `<prefix>.key` (`x-apisports-key`) and `<prefix>.timeout.ms` (default 5000) say; nil when no
        /// URL is set, so nothing is polled.
        public init?(reader: ConfigReader, prefix: String) {
            guard let url = reader.text("\(prefix).url"), !url.isEmpty else { return nil }
            self.init(
                baseURL: url, key: reader.text("\(prefix).key", isSecret: true) ?? "",
                timeout: reader.milliseconds("\(prefix).timeout.ms", default: 5000))
        }
    }

    public enum Failure: Error, Equatable {
        /// No usable answer (down, timed out, a 5xx, unreadable).
        case unavailable(String)
        /// 429: wait this long before the next call.
        case rateLimited(retryAfterSeconds: Int)
        /// The provider answered with `errors` (a bad key, a bad parameter).
        case refused([String: String])
    }

    /// A body of the provider's envelope: `response` items, and `errors`, which is `[]` when there
    /// are none and an object otherwise.
    public struct Envelope<Item: Decodable>: Decodable {
        public let errors: [String: String]
        public let response: [Item]

        private enum Keys: String, CodingKey { case errors, response }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            errors = (try? container.decode([String: String].self, forKey: .errors)) ?? [:]
            // A refusal may come without `response`.
            response = try container.decodeIfPresent([Item].self, forKey: .response) ?? []
        }
    }

    public let settings: Settings
    let http: HTTPClient

    public init(settings: Settings, http: HTTPClient) {
        self.settings = settings
        self.http = http
    }

    /// The `response` items of `GET /<resource>?<query>`, with the calls left in the provider's window.
    public func get<Item: Decodable>(_ resource: String, _ query: [String: String], as item: Item.Type) async throws
        -> (items: [Item], remaining: Int?)
    {
        var components = URLComponents(string: settings.baseURL + "/" + resource)
        components?.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        guard let url = components?.url?.absoluteString else { throw Failure.unavailable("bad provider URL \(settings.baseURL)") }
        var request = HTTPClientRequest.toProvider(url)
        request.headers.add(name: "x-apisports-key", value: settings.key)
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await http.callProvider("football", resource, request, timeout: .init(settings.timeout))
            body = try await response.body.collect(upTo: 8 * 1024 * 1024)
        } catch {
            throw Failure.unavailable("\(error)")
        }
        let remaining = ["x-ratelimit-remaining", "x-ratelimit-requests-remaining"].lazy
            .compactMap { response.headers.first(name: $0).flatMap(Int.init) }.first
        if response.status.code == 429 {
            throw Failure.rateLimited(retryAfterSeconds: response.headers.first(name: "retry-after").flatMap(Int.init) ?? 60)
        }
        guard response.status.code == 200 else { throw Failure.unavailable("the provider answered \(response.status.code)") }
        guard let answer = try? JSONDecoder().decode(Envelope<Item>.self, from: Data(buffer: body)) else {
            throw Failure.unavailable("an answer that is not API-Football's")
        }
        guard answer.errors.isEmpty else { throw Failure.refused(answer.errors) }
        return (answer.response, remaining)
    }
}
