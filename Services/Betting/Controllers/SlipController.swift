import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/betting/slip...`: my draft ticket.
struct SlipController: Controller {
    let slips: Slips

    func register(on router: Router<HuddleRequestContext>) {
        router.on(BettingAPI.slip, use: slip)
        router.on(BettingAPI.pick, use: pick)
        router.on(BettingAPI.unpick, use: unpick)
        router.on(BettingAPI.stake, use: stake)
        router.on(BettingAPI.clearSlip, use: clearSlip)
    }

    /// `GET /v1/betting/slip`
    @Sendable func slip(_ request: Request, _ context: AuthenticatedContext) async throws -> Slip {
        try await slips.slip(of: context.userID)
    }

    /// `PUT /v1/betting/slip/selections/{fixtureId}`
    @Sendable func pick(_ body: SlipPick, _ request: Request, _ context: AuthenticatedContext) async throws -> Slip {
        try await slips.pick(
            body.pick, on: try context.parameters.id(MatchID.self, at: "fixtureId", naming: "fixture"), for: context.userID)
    }

    /// `DELETE /v1/betting/slip/selections/{fixtureId}`
    @Sendable func unpick(_ request: Request, _ context: AuthenticatedContext) async throws -> Slip {
        try await slips.unpick(try context.parameters.id(MatchID.self, at: "fixtureId", naming: "fixture"), for: context.userID)
    }

    /// `PUT /v1/betting/slip/stake`
    @Sendable func stake(_ body: SlipStake, _ request: Request, _ context: AuthenticatedContext) async throws -> Slip {
        try await slips.stake(body.stake, for: context.userID)
    }

    /// `DELETE /v1/betting/slip`
    @Sendable func clearSlip(_ request: Request, _ context: AuthenticatedContext) async throws -> Slip {
        try await slips.clear(for: context.userID)
    }
}
