public import Contracts

extension CatalogAPI {
    /// What other modules call. Internal callers see everything; they apply user-facing rules themselves.
    public enum Internal {
        public static let team = Endpoint<InternalCaller, NoBody, Team>(.get, "/internal/teams/{id}", owner: .catalog, summary: "A team")
        public static let members = Endpoint<InternalCaller, NoBody, Page<TeamMembership>>(
            .get, "/internal/teams/{id}/members", owner: .catalog, summary: "Everyone with a standing in a team")
        public static let membership = Endpoint<InternalCaller, NoBody, TeamMembership>(
            .get, "/internal/teams/{id}/members/{userId}", owner: .catalog, summary: "A user's standing in a team")
        public static let league = Endpoint<InternalCaller, NoBody, League>(
            .get, "/internal/leagues/{id}", owner: .catalog, summary: "A league")
        public static let leagueTeams = Endpoint<InternalCaller, NoBody, Page<Team>>(
            .get, "/internal/leagues/{id}/teams", owner: .catalog, summary: "A league's teams")
        public static let course = Endpoint<InternalCaller, NoBody, Course>(
            .get, "/internal/courses/{id}", owner: .catalog, summary: "A course with its holes")
        public static let venue = Endpoint<InternalCaller, NoBody, Venue>(
            .get, "/internal/venues/{id}", owner: .catalog, summary: "A venue")
        public static let teamSnapshot = Endpoint<InternalCaller, NoBody, Page<Team>>(
            .get, "/internal/snapshots/teams", owner: .catalog, summary: "Every listed team, page by page", query: Query.paging)
        public static let courseSnapshot = Endpoint<InternalCaller, NoBody, Page<Course>>(
            .get, "/internal/snapshots/courses", owner: .catalog, summary: "Every course, page by page", query: Query.paging)
        public static let venueSnapshot = Endpoint<InternalCaller, NoBody, Page<Venue>>(
            .get, "/internal/snapshots/venues", owner: .catalog, summary: "Every venue, page by page", query: Query.paging)
        public static let ingestNews = Endpoint<InternalCaller, NewsIngestRequest, NewsIngestResult>(
            .post, "/internal/news", owner: .catalog, summary: "Store articles a news feed adapter read")

        public static let all: [APIOperation] =
            [
                team.operation, members.operation, membership.operation, league.operation, leagueTeams.operation, course.operation,
                venue.operation,
                teamSnapshot.operation, courseSnapshot.operation, venueSnapshot.operation, ingestNews.operation,
                EventsAPI.deliver(to: .catalog).operation, EventsAPI.applied(by: .catalog).operation,
                PersonalDataAPI.export(of: .catalog).operation, ModerationAPI.Internal.subject(at: .catalog).operation,
            ] + EventsAPI.publisherOperations(of: .catalog)
    }
}
