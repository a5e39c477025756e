/// Search's operations: everything near a place, and players by name.
public enum SearchAPI {
    public static let skill = Query.choice("skill", Skill.self, description: "matches that skill or any")
    public static let ageGroup = Query.choice("ageGroup", AgeGroup.self, description: "matches that age group or any")
    public static let gender = Query.choice("gender", Gender.self, description: "male or female also match coed and any")
    private static let filters: [any QueryDescribing] = [Query.sport, skill, ageGroup, gender]
    private static let area: [any QueryDescribing] = [Query.searchOrigin, Query.radiusKm]
    /// A search from a postcode: one the geocoder does not know, or a geocoder that does not answer.
    private static let byPostcode: [ProblemCode] = [.unknownPostcode, .dependencyUnavailable]

    public static let from = Query.time("from")
    public static let to = Query.time("to", description: "not before from")
    public static let needsPlayers = Query.flag("needsPlayers")
    public static let recruiting = Query.flag("recruiting")
    public static let openSlots = Query.flag("openSlots", description: "true: games with a free slot; false: full ones")
    public static let venuesLimit = Query.integer("limit", 1...100, fallback: 5)
    public static let playerText = Query.requiredText("q", PlayerSearch.text)

    public static let games = Endpoint<SignedIn, NoBody, Page<Nearby<Game>>>(
        .get, "/v1/search/games", owner: .search,
        summary: "Upcoming games within the radius, nearest first, then soonest; private games never, protected ones without location "
            + "(where the location gate is on, none with location without the location entitlement)",
        query: area + filters + [from, to, needsPlayers, openSlots] + Query.paging, problems: byPostcode)
    public static let teams = Endpoint<SignedIn, NoBody, Page<Nearby<TeamResult>>>(
        .get, "/v1/search/teams", owner: .search,
        summary: "Teams within the radius, nearest first; private never, protected without location (where the location gate is "
            + "on, none with location without the location entitlement)",
        query: area + filters + [recruiting] + Query.paging, problems: byPostcode)
    public static let courses = Endpoint<SignedIn, NoBody, Page<Nearby<Course>>>(
        .get, "/v1/search/courses", owner: .search, summary: "Disc golf courses within the radius, nearest first",
        query: area + Query.paging, problems: byPostcode)
    public static let venues = Endpoint<SignedIn, NoBody, Page<Nearby<Venue>>>(
        .get, "/v1/search/venues", owner: .search, summary: "The nearest grounds within the radius, nearest first",
        query: area + [venuesLimit], problems: byPostcode)
    public static let players = Endpoint<SignedIn, NoBody, Page<PlayerResult>>(
        .get, "/v1/search/players", owner: .search, summary: "Players by name: prefixes first, small typos forgiven",
        query: [playerText] + Query.paging)

    public static let all: [APIOperation] = [games.operation, teams.operation, courses.operation, venues.operation, players.operation]
}
