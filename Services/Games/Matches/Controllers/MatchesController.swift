import Contracts
import Foundation
import Hummingbird
import ServiceHTTP

/// `/v1/matches...`: conditional reads, public (the live socket is `MatchLiveController`).
struct MatchesController: Controller {
    let matches: Matches
    let today: @Sendable () -> Date

    func register(on router: Router<HuddleRequestContext>) {
        router.on(GamesAPI.matches, conditional: listMatches)
        router.on(GamesAPI.match, conditional: match)
    }

    /// `GET /v1/matches`
    @Sendable func listMatches(_ request: Request, _ context: HuddleRequestContext) async throws -> Conditional<Page<Match>> {
        try await matches.list(try listing(request))
    }

    /// `GET /v1/matches/{id}`
    @Sendable func match(_ request: Request, _ context: HuddleRequestContext) async throws -> Conditional<Match> {
        try await matches.match(try context.parameters.id(MatchID.self))
    }

    /// `?date=` (today, UTC, by default; any day with `live=true`), `?live=`, `?league=`.
    private func listing(_ request: Request) throws -> MatchListing {
        let live = try request.query(GamesAPI.matchesLive) ?? false
        let league = try request.query(GamesAPI.matchesLeague)
        let day = try request.query(GamesAPI.matchesDay)
        let kickoff = (day ?? (live ? nil : CalendarDay(containing: today()))).map { $0.start..<$0.next.start }
        return MatchListing(kickoff: kickoff, liveOnly: live, league: league)
    }
}
