import AsyncHTTPClient
import Contracts
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// API-Football v3 over HTTP: `GET /fixtures?date=`, `?live=all` and `?ids=` (events included; at most
/// 20 a call, so longer lists are asked in turns), key in `x-apisports-key`. Reports the provider's
/// remaining allowance from its rate-limit headers, and its refusals as `Failure`s the poller can act
/// on: back off after 429, keep the last state while it is down.
struct APIFootballClient: Sendable {
    struct Settings: Sendable {
        var baseURL: String
        var key: String
        var timeout: Duration
    }

    enum Failure: Error, Equatable {
        /// No usable answer (down, timed out, a 5xx, unreadable).
        case unavailable(String)
        /// 429: wait this long before the next call.
        case rateLimited(retryAfterSeconds: Int)
        /// The provider answered with `errors` (a bad key, a bad parameter).
        case refused([String: String])
    }

    struct Answer: Sendable {
        let matches: [ReportedMatch]
        /// Calls left in the provider's current window, when it says.
        let remaining: Int?
    }

    static let idsPerCall = 20

    let settings: Settings
    let http: HTTPClient

    func fixtures(on day: String) async throws -> Answer { try await get(["date": day]) }

    func live() async throws -> Answer { try await get(["live": "all"]) }

    func fixtures(ids: [Int]) async throws -> Answer {
        var matches: [ReportedMatch] = [], remaining: Int? = nil
        for start in stride(from: 0, to: ids.count, by: Self.idsPerCall) {
            let chunk = ids[start..<min(start + Self.idsPerCall, ids.count)]
            let answer = try await get(["ids": chunk.map(String.init).joined(separator: "-")])
            matches += answer.matches
            remaining = answer.remaining
        }
        return Answer(matches: matches, remaining: remaining)
    }

    private func get(_ query: [String: String]) async throws -> Answer {
        var components = URLComponents(string: settings.baseURL + "/fixtures")
        components?.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        guard let url = components?.url?.absoluteString else { throw Failure.unavailable("bad provider URL \(settings.baseURL)") }
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "x-apisports-key", value: settings.key)
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await http.execute(request, timeout: .init(settings.timeout))
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
        guard let answer = try? JSONDecoder().decode(APIFootballAnswer.self, from: Data(buffer: body)) else {
            throw Failure.unavailable("an answer that is not API-Football's")
        }
        guard answer.errors.isEmpty else { throw Failure.refused(answer.errors) }
        return Answer(matches: answer.response.compactMap(\.report), remaining: remaining)
    }
}
