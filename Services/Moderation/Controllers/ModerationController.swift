import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/reports...`: what players report, and what came of it.
struct ReportsController: Controller {
    let reports: Reports

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ModerationAPI.report, answering: report)
        router.on(ModerationAPI.myReports, use: myReports)
    }

    /// `POST /v1/reports`: 201 for a new report, 200 for the reporter's earlier one on the same subject.
    @Sendable func report(_ body: ReportRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> (Report, status: Int)
    {
        let (report, created) = try await reports.report(body, by: context.userID, requestID: context.requestID)
        return (report, created ? 201 : 200)
    }

    /// `GET /v1/reports`
    @Sendable func myReports(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<Report> {
        try await reports.mine(context.userID, page: try PageRequest(request))
    }
}

/// `/v1/moderation/...`: moderators' queue and decisions; administrators' grants of the role.
struct ModerationController: Controller {
    let cases: Cases
    let moderators: Moderators

    func register(on router: Router<HuddleRequestContext>) {
        router.on(ModerationAPI.cases, use: listCases)
        router.on(ModerationAPI.act, authorizing: { try await moderators.require($0.identity) }, use: act)
        router.on(ModerationAPI.moderators, use: listModerators)
        router.on(ModerationAPI.grantModerator, use: grantModerator)
        router.on(ModerationAPI.revokeModerator, use: revokeModerator)
    }

    /// `GET /v1/moderation/cases`
    @Sendable func listCases(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<ModerationCase> {
        try await cases.queue(
            try request.query(ModerationAPI.caseStatus), overdue: try request.query(ModerationAPI.overdue) ?? false,
            page: try PageRequest(request), for: context.identity)
    }

    /// `POST /v1/moderation/cases/{id}/actions`
    @Sendable func act(_ body: CaseActionRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> ModerationCase {
        try await cases.decide(try context.parameters.id(CaseID.self), body, by: context.identity)
    }

    /// `GET /v1/moderation/moderators`
    @Sendable func listModerators(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<Moderator> {
        try await moderators.list(for: context.identity)
    }

    /// `PUT /v1/moderation/moderators/{userId}`
    @Sendable func grantModerator(_ request: Request, _ context: AuthenticatedContext) async throws -> Moderator {
        try await moderators.grant(try context.parameters.id(UserID.self, at: "userId"), by: context.identity)
    }

    /// `DELETE /v1/moderation/moderators/{userId}`
    @Sendable func revokeModerator(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await moderators.revoke(try context.parameters.id(UserID.self, at: "userId"), by: context.identity)
        return NoContent()
    }
}
