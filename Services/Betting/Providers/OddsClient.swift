import AsyncHTTPClient
import Contracts
import Foundation
import ServiceFeatures

/// API-Football v3's odds: `GET /odds?fixture=`, market "Match Winner" (values Home / Draw / Away)
/// from the first bookmaker that prices it, through `APIFootballTransport`.
struct OddsClient: Sendable {
    typealias Settings = APIFootballTransport.Settings
    typealias Failure = APIFootballTransport.Failure

    let transport: APIFootballTransport

    init(settings: Settings, http: HTTPClient) { transport = APIFootballTransport(settings: settings, http: http) }

    /// The fixture's 1X2 odds; nil when the provider has none for it.
    func odds(ofFixture fixture: Int) async throws -> MatchOdds? {
        try await transport.get("odds", ["fixture": String(fixture)], as: Item.self).items.lazy.compactMap(\.matchWinner).first
    }

    /// One item of the answer, the fields read here, named as the provider names them.
    struct Item: Decodable {
        struct Bookmaker: Decodable {
            struct Bet: Decodable {
                struct Value: Decodable {
                    let value: String
                    let odd: String
                }
                let name: String
                let values: [Value]
            }
            let bets: [Bet]
        }
        let bookmakers: [Bookmaker]

        var matchWinner: MatchOdds? {
            for bookmaker in bookmakers {
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
