import AsyncHTTPClient
import Contracts
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// API-Football v3's odds: `GET /odds?fixture=` with `x-apisports-key`, market "Match Winner" (bet id
/// 1, values Home / Draw / Away) from the first bookmaker that prices it.
struct OddsClient: Sendable {
    struct Settings: Sendable {
        var baseURL: String
        var key: String
        var timeout: Duration
    }

    enum Failure: Error, Equatable {
        /// Down, timed out, a 5xx, an unreadable answer, or the provider's `errors`.
        case unavailable(String)
        /// 429: wait this long.
        case rateLimited(retryAfterSeconds: Int)
    }

    let settings: Settings
    let http: HTTPClient

    /// The fixture's 1X2 odds; nil when the provider has none for it.
    func odds(ofFixture fixture: Int) async throws -> MatchOdds? {
        var request = HTTPClientRequest(url: "\(settings.baseURL)/odds?fixture=\(fixture)")
        request.headers.add(name: "x-apisports-key", value: settings.key)
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await http.execute(request, timeout: .init(settings.timeout))
            body = try await response.body.collect(upTo: 4 * 1024 * 1024)
        } catch {
            throw Failure.unavailable("\(error)")
        }
        if response.status.code == 429 {
            throw Failure.rateLimited(retryAfterSeconds: response.headers.first(name: "retry-after").flatMap(Int.init) ?? 60)
        }
        guard response.status.code == 200, let answer = try? JSONDecoder().decode(Answer.self, from: Data(buffer: body)) else {
            throw Failure.unavailable("the provider answered \(response.status.code) without API-Football's odds")
        }
        guard answer.errors.isEmpty else { throw Failure.unavailable("the provider refused: \(answer.errors)") }
        return answer.matchWinner
    }

    /// The parts of the answer read here. `errors` is `[]` when empty and an object otherwise.
    struct Answer: Decodable {
        struct Item: Decodable {
            struct Bookmaker: Decodable {
                struct Bet: Decodable {
                    struct Value: Decodable {
                        let value: String
                        let odd: String
                    }
                    let id: Int
                    let name: String
                    let values: [Value]
                }
                let bets: [Bet]
            }
            let bookmakers: [Bookmaker]
        }

        let errors: [String: String]
        let response: [Item]

        private enum Keys: String, CodingKey { case errors, response }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            errors = (try? container.decode([String: String].self, forKey: .errors)) ?? [:]
            response = try container.decode([Item].self, forKey: .response)
        }

        var matchWinner: MatchOdds? {
            for bookmaker in response.flatMap(\.bookmakers) {
                guard let bet = bookmaker.bets.first(where: { $0.name == "Match Winner" }) else { continue }
                func price(_ name: String) -> Odds? { bet.values.first { $0.value == name }.flatMap { Odds($0.odd) } }
                if let home = price("Home"), let draw = price("Draw"), let away = price("Away") {
                    return MatchOdds(home: home, draw: draw, away: away)
                }
            }
            return nil
        }
    }
}
