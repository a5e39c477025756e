import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// The stand-in's football test controls, called over HTTP: how tests, benchmarks and `huddle`'s
/// demo schedule fixtures and play them.
public struct FootballControlClient: Sendable {
    public let baseURL: String

    public init(baseURL: String) { self.baseURL = baseURL }

    /// A control the stand-in refused (or could not be reached for).
    public struct Refused: Error, CustomStringConvertible {
        public let description: String
    }

    /// Schedules a fixture; answers the provider's fixture id.
    @discardableResult
    public func schedule(_ fixture: FootballControl.NewFixture) async throws -> Int {
        struct Created: Decodable { let id: Int }
        let body = try await send(.POST, "/test/football/fixtures", fixture)
        return try JSONDecoder().decode(Created.self, from: body).id
    }

    public func setStatus(_ fixture: Int, _ status: String, elapsed: Int? = nil) async throws {
        _ = try await send(
            .POST, "/test/football/fixtures/\(fixture)/status", FootballControl.StatusChange(status: status, elapsed: elapsed))
    }

    public func record(_ fixture: Int, _ event: FootballControl.NewEvent) async throws {
        _ = try await send(.POST, "/test/football/fixtures/\(fixture)/events", event)
    }

    public func setOdds(_ fixture: Int, _ odds: FootballControl.Odds) async throws {
        _ = try await send(.PUT, "/test/football/fixtures/\(fixture)/odds", odds)
    }

    public func setPrediction(_ fixture: Int, _ prediction: FootballControl.Prediction) async throws {
        _ = try await send(.PUT, "/test/football/fixtures/\(fixture)/prediction", prediction)
    }

    public func setOutage(_ down: Bool) async throws {
        _ = try await send(.POST, "/test/football/outage", FootballControl.Outage(down: down))
    }

    /// The feed's calls so far, oldest first, and who made them.
    public func requests() async throws -> [FootballControl.ProviderRequest] {
        struct Requests: Decodable { let items: [FootballControl.ProviderRequest] }
        let response = try await HTTPClient.shared.execute(
            HTTPClientRequest(url: baseURL + "/test/football/requests"), timeout: .seconds(30))
        let answer = Data(buffer: try await response.body.collect(upTo: 64 << 20))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try decoder.decode(Requests.self, from: answer).items
    }

    private func send(_ method: HTTPMethod, _ path: String, _ body: some Encodable) async throws -> Data {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let answer = Data(buffer: try await response.body.collect(upTo: 1 << 20))
        guard response.status.code == 200 else {
            throw Refused(description: "\(method) \(path) answered \(response.status.code): \(String(decoding: answer, as: UTF8.self))")
        }
        return answer
    }
}
