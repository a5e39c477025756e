import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/betting/slip...`: my draft ticket.
struct SlipController: Controller {
    let slips: Slips

    func register(on router: Router<HuddleRequestContext>) {
        router.on(BettingAPI.slip) { _, context in try await slips.slip(of: context.userID) }
        router.on(BettingAPI.pick) { body, _, context in
            try await slips.pick(
                body.pick, on: try context.parameters.id(MatchID.self, at: "fixtureId", naming: "fixture"), for: context.userID)
        }
        router.on(BettingAPI.unpick) { _, context in
            try await slips.unpick(try context.parameters.id(MatchID.self, at: "fixtureId", naming: "fixture"), for: context.userID)
        }
        router.on(BettingAPI.stake) { body, _, context in try await slips.stake(body.stake, for: context.userID) }
        router.on(BettingAPI.clearSlip) { _, context in try await slips.clear(for: context.userID) }
    }
}
