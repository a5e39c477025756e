import AsyncHTTPClient
import Contracts
import Foundation
import ServiceFeatures

/// API-Football v3's fixtures: `GET /fixtures?date=`, `?live=all` and `?ids=` (events included; at
/// most 20 a call, so longer lists are asked in turns), through `APIFootballTransport` (the key, the
/// remaining allowance, refusals as `Failure`s).
struct APIFootballClient: Sendable {
    typealias Settings = APIFootballTransport.Settings
    typealias Failure = APIFootballTransport.Failure

    struct Answer: Sendable {
        let matches: [ReportedMatch]
        /// Calls left in the provider's current window, when it says.
        let remaining: Int?
    }

    static let idsPerCall = 20

    let transport: APIFootballTransport

    init(settings: Settings, http: HTTPClient) { transport = APIFootballTransport(settings: settings, http: http) }

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

    /// The provider's prediction of a fixture's result (`GET /predictions?fixture=`), with the calls
    /// left; nil when it has none.
    func prediction(ofFixture fixture: Int) async throws -> (prediction: Match.Prediction?, remaining: Int?) {
        let (items, remaining) = try await transport.get("predictions", ["fixture": String(fixture)], as: PredictionItem.self)
        return (items.lazy.compactMap(\.percentages).first, remaining)
    }

    /// One item of `/predictions`, the fields read here: `predictions.percent` as "45%" strings.
    struct PredictionItem: Decodable {
        struct Predictions: Decodable {
            struct Percent: Decodable {
                let home: String?
                let draw: String?
                let away: String?
            }
            let percent: Percent?
        }
        let predictions: Predictions?

        var percentages: Match.Prediction? {
            func value(_ text: String?) -> Int? {
                text.flatMap { Int($0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "%", with: "")) }
                    .flatMap { (0...100).contains($0) ? $0 : nil }
            }
            guard let percent = predictions?.percent, let home = value(percent.home), let draw = value(percent.draw),
                let away = value(percent.away)
            else { return nil }
            return Match.Prediction(home: home, draw: draw, away: away)
        }
    }

    private func get(_ query: [String: String]) async throws -> Answer {
        let (items, remaining) = try await transport.get("fixtures", query, as: APIFootballAnswer.Item.self)
        return Answer(matches: items.compactMap(\.report), remaining: remaining)
    }
}
