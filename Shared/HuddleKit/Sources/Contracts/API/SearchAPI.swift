/// Search's operations: everything near a place, and players by name.
public enum SearchAPI {
    private static let filters: [QueryParameter] = [
        .sport,
        .choice("skill", Skill.self, description: "matches that skill or any"),
        .choice("ageGroup", AgeGroup.self, description: "matches that age group or any"),
        .choice("gender", Gender.self, description: "male or female also match coed and any"),
    ]

    public static let games = Endpoint<SignedIn, NoBody, Page<Nearby<Game>>>(
        .get, "/v1/search/games", owner: .search,
        summary: "Upcoming games within the radius, nearest first, then soonest; private games never, protected ones without location",
        query: QueryParameter.area + filters + [
            QueryParameter("from", .dateTime), QueryParameter("to", .dateTime, description: "not before from"),
            QueryParameter("needsPlayers", .boolean),
        ] + QueryParameter.paging)
    public static let teams = Endpoint<SignedIn, NoBody, Page<Nearby<TeamResult>>>(
        .get, "/v1/search/teams", owner: .search,
        summary: "Teams within the radius, nearest first; private never, protected without location",
        query: QueryParameter.area + filters + QueryParameter.paging)
    public static let courses = Endpoint<SignedIn, NoBody, Page<Nearby<Course>>>(
        .get, "/v1/search/courses", owner: .search, summary: "Disc golf courses within the radius, nearest first",
        query: QueryParameter.area + QueryParameter.paging)
    public static let venues = Endpoint<SignedIn, NoBody, Page<Nearby<Venue>>>(
        .get, "/v1/search/venues", owner: .search, summary: "The nearest grounds",
        query: Array(QueryParameter.area.prefix(2)) + [QueryParameter("limit", JSONSchema.integer(1...100).defaulting(to: .number(5)))])
    public static let players = Endpoint<SignedIn, NoBody, Page<PlayerResult>>(
        .get, "/v1/search/players", owner: .search, summary: "Players by name: prefixes first, small typos forgiven",
        query: [QueryParameter("q", PlayerSearch.text.schema, required: true)] + QueryParameter.paging)

    public static let all: [APIOperation] = [games.operation, teams.operation, courses.operation, venues.operation, players.operation]

    public enum Internal {
        public static let reindex = Endpoint<InternalCaller, NoBody, ReindexResult>(
            .post, "/internal/reindex", owner: .search, summary: "Rebuild the read model from the owners' snapshots",
            problems: [.dependencyUnavailable])

        public static let all: [APIOperation] = [reindex.operation, EventsAPI.deliver(to: .search).operation]
    }
}
