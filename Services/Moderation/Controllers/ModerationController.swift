import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/reports...`: what players report, and what came of it.
struct ReportsController: Controller {
    let reports: Reports

    func register(on router: Router<HuddleRequestContext>) {
        router.on(
            ModerationAPI.report,
            answering: { body, _, context in
                let (report, created) = try await reports.report(body, by: context.userID, requestID: context.requestID)
                return (report, created ? 201 : 200)
            })
        router.on(ModerationAPI.myReports) { request, context in try await reports.mine(context.userID, page: try PageRequest(request)) }
    }
}

/// `/v1/moderation/...`: moderators' queue and decisions; administrators' grants of the role.
struct ModerationController: Controller {
    let cases: Cases
    let moderators: Moderators

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ModerationAPI.cases) { request, context in
            try await cases.queue(
                try request.query(ModerationAPI.caseStatus), overdue: try request.query(ModerationAPI.overdue) ?? false,
                page: try PageRequest(request), for: context.identity)
        }
        router.on(ModerationAPI.act, authorizing: { try await moderators.require($0.identity) }) { body, _, context in
            try await cases.decide(try context.parameters.id(CaseID.self), body, by: context.identity)
        }
        router.on(ModerationAPI.moderators) { _, context in try await moderators.list(for: context.identity) }
        router.on(ModerationAPI.grantModerator) { _, context in
            try await moderators.grant(try context.parameters.id(UserID.self, at: "userId"), by: context.identity)
        }
        router.on(ModerationAPI.revokeModerator) { _, context in
            try await moderators.revoke(try context.parameters.id(UserID.self, at: "userId"), by: context.identity)
            return NoContent()
        }
    }
}
