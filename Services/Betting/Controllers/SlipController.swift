import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/betting/slip...`: my draft ticket; `/v1/betting/quote`: anyone's, priced and not kept.
struct SlipController: Controller {
    let slips: Slips

    func register(on router: Router<HuddleRequestContext>) {
        router.on(BettingAPI.slip, use: slip)
        router.on(BettingAPI.pick, use: pick)
        router.on(BettingAPI.unpick, use: unpick)
        router.on(BettingAPI.stake, use: stake)
        router.on(BettingAPI.clearSlip, use: clearSlip)
        router.on(BettingAPI.replaceSlip, use: replace)
        router.on(BettingAPI.quote, use: quote)
    }

    /// `PUT /v1/betting/slip`
    @Sendable func replace(_ body: SlipRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> Slip {
        try await slips.replace(with: body, for: context.userID)
    }

    /// `POST /v1/betting/quote`, no account needed.
    @Sendable func quote(_ body: SlipRequest, _ request: Request, _ context: HuddleRequestContext) async throws -> Slip {
        try await slips.quote(body)
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
