/// Moderation's operations: players report what is abusive; moderators work the cases; administrators
/// grant the moderator role.
public enum ModerationAPI {
    public static let report = Endpoint<SignedIn, ReportRequest, Report>(
        .post, "/v1/reports", owner: .moderation,
        summary: "Report a message, player, team, league or game I can see (404 otherwise), with a reason; the same subject again "
            + "answers my first report (200). block also blocks the player, or the message's sender. What is reported is kept as it is now",
        status: 201, problems: [.notFound, .rateLimited, .dependencyUnavailable], otherAnswers: [200: Report.self])
    public static let myReports = Endpoint<SignedIn, NoBody, Page<Report>>(
        .get, "/v1/reports", owner: .moderation, summary: "My reports, newest first, each with its outcome", query: Query.paging)
    public static let cases = Endpoint<SignedIn, NoBody, Page<ModerationCase>>(
        .get, "/v1/moderation/cases", owner: .moderation,
        summary: "Moderators: cases oldest first (open by default), each with the content as first reported, its context, the "
            + "reasons, what was done and the owner's history",
        query: [caseStatus, overdue] + Query.paging, problems: [.forbidden])
    public static let act = Endpoint<SignedIn, CaseActionRequest, ModerationCase>(
        .post, "/v1/moderation/cases/{id}/actions", owner: .moderation,
        summary: "Moderators: decide an open case (dismiss, remove, warn, suspend until a time, ban) with a reason kept in the "
            + "audit trail; the reporters and the owner are told. 409 CASE_CLOSED when another moderator decided it first",
        problems: [.forbidden, .caseClosed])
    public static let moderators = Endpoint<SignedIn, NoBody, Page<Moderator>>(
        .get, "/v1/moderation/moderators", owner: .moderation, summary: "Administrators: who holds the moderator role",
        problems: [.forbidden])
    public static let grantModerator = Endpoint<SignedIn, NoBody, Moderator>(
        .put, "/v1/moderation/moderators/{userId}", owner: .moderation,
        summary: "Administrators: grant a player the moderator role (idempotent)", problems: [.forbidden])
    public static let revokeModerator = Endpoint<SignedIn, NoBody, NoContent>(
        .delete, "/v1/moderation/moderators/{userId}", owner: .moderation,
        summary: "Administrators: take the moderator role back (idempotent)", status: 204, problems: [.forbidden])

    /// `?overdue=true`: only open cases older than the response time (`moderation.response.ms`, 24 hours).
    public static let overdue = Query.flag("overdue", description: "only open cases past the response time (24 hours by default)")
    /// `?status=`: open cases (the default) or closed ones.
    public static let caseStatus = Query.choice("status", fallback: CaseStatus.open, description: "open (the default) or closed")

    public static let all: [APIOperation] = [
        report.operation, myReports.operation, cases.operation, act.operation, moderators.operation, grantModerator.operation,
        revokeModerator.operation,
    ]
}
