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

    private func get(_ query: [String: String]) async throws -> Answer {
        let (items, remaining) = try await transport.get("fixtures", query, as: APIFootballAnswer.Item.self)
        return Answer(matches: items.compactMap(\.report), remaining: remaining)
    }
}
