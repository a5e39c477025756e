import Foundation
import HuddleEffects
import Hummingbird

/// The stand-in's football test controls: what tests and demos use to make matches happen.
struct FootballControls: Sendable {
    let feed: FootballFeed
    let requests: ProviderRequestLog

    func add(to router: Router<BasicRequestContext>) {
        router.get("test/football/requests") { _, _ in
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .millisecondsSince1970
            let body = try encoder.encode(["items": requests.all])
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        // While down, the feed answers 503 to every call, as a provider in trouble does.
        router.post("test/football/outage") { request, context in
            let outage = try await request.decode(as: FootballControl.Outage.self, context: context)
            await feed.setDown(outage.down)
            return ["down": outage.down]
        }
        let fixtures = router.group("test/football/fixtures")
        fixtures.post { request, context in
            let created = await feed.add(try await request.decode(as: FootballControl.NewFixture.self, context: context))
            return ["id": created]
        }
        fixtures.post(":id/status") { request, context in
            let change = try await request.decode(as: FootballControl.StatusChange.self, context: context)
            let now = Effects.system.now()
            return try await apply(context) { try $0.setStatus(change.status, elapsed: change.elapsed, at: now) }
        }
        fixtures.post(":id/events") { request, context in
            let event = try await request.decode(as: FootballControl.NewEvent.self, context: context)
            return try await apply(context) {
                try $0.record(.init(elapsed: event.elapsed, side: event.team, player: event.player, type: event.type, detail: event.detail))
            }
        }
        fixtures.put(":id/odds") { request, context in
            let odds = try await request.decode(as: FootballControl.Odds.self, context: context)
            guard [odds.home, odds.draw, odds.away].allSatisfy({ Decimal(string: $0).map { $0 > 1 } == true }) else {
                throw HTTPError(.badRequest, message: "odds must be decimals above 1, as strings")
            }
            return try await apply(context) { $0.odds = (odds.home, odds.draw, odds.away) }
        }
        fixtures.put(":id/prediction") { request, context in
            let chances = try await request.decode(as: FootballControl.Prediction.self, context: context)
            guard [chances.home, chances.draw, chances.away].allSatisfy({ (0...100).contains($0) }) else {
                throw HTTPError(.badRequest, message: "chances are percentages, 0 to 100")
            }
            return try await apply(context) { $0.prediction = (chances.home, chances.draw, chances.away) }
        }
    }

    /// Changes the fixture named by the path and answers it as the provider's `ids=` call would.
    private func apply(_ context: BasicRequestContext, _ change: @Sendable (inout FootballFixture) throws -> Void) async throws -> Response
    {
        guard let id = context.parameters.get("id", as: Int.self) else { throw HTTPError(.notFound) }
        do {
            guard let fixture = try await feed.change(id, change) else { throw HTTPError(.notFound, message: "no fixture \(id)") }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(fixture.wire(detailed: true)))))
        } catch let refusal as FootballFixture.Refusal {
            throw HTTPError(.badRequest, message: "\(refusal)")
        }
    }
}
