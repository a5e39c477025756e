/// Catalog's operations: sports, leagues, teams and membership, courses, venues, news.
public enum CatalogAPI {
    public static let sports = Endpoint<Anyone, NoBody, Page<SportInfo>>(.get, "/v1/sports", owner: .catalog, summary: "The sport list")

    // MARK: Leagues
    public static let createLeague = Endpoint<SignedIn, CreateLeagueRequest, League>(
        .post, "/v1/leagues", owner: .catalog,
        summary: "Create a league; you become its manager. Where the leagues gate is on, only with the leagues entitlement",
        status: 201, problems: [.entitlementRequired, .contentRefused], traits: .idempotent)
    public static let leagues = Endpoint<SignedIn, NoBody, Page<League>>(
        .get, "/v1/leagues", owner: .catalog, summary: "Leagues by sport and name; private ones only for those involved",
        query: [Query.sport] + Query.paging)
    public static let league = Endpoint<SignedIn, NoBody, League>(.get, "/v1/leagues/{id}", owner: .catalog, summary: "A league")
    public static let leagueTeams = Endpoint<SignedIn, NoBody, Page<Team>>(
        .get, "/v1/leagues/{id}/teams", owner: .catalog,
        summary: "The league's teams, each place shown as GET /v1/teams/{id} shows it", query: [Query.position])
    public static let updateLeague = Endpoint<SignedIn, UpdateLeagueRequest, League>(
        .patch, "/v1/leagues/{id}", owner: .catalog,
        summary: "Change a league's name or logo (manager only); logoMediaId is one of my completed leagueLogo uploads, null removes it",
        problems: [.forbidden, .contentRefused, .mediaNotAttachable, .dependencyUnavailable])
    public static let addLeagueTeam = Endpoint<SignedIn, AddLeagueTeamRequest, League>(
        .post, "/v1/leagues/{id}/teams", owner: .catalog,
        summary: "Add a team (league manager only; same sport): my own team at once (200, the league); another manager's "
            + "is asked (202 {status: pending}) and joins when its manager accepts",
        problems: [.forbidden, .sportMismatch], traits: .idempotent, otherAnswers: [202: LeagueTeamRequest.self])
    public static let deleteLeague = Endpoint<SignedIn, NoBody, NoContent>(
        .delete, "/v1/leagues/{id}", owner: .catalog, summary: "Delete a league (manager only); its teams stay, and games played in it",
        problems: [.forbidden])
    public static let acceptLeague = Endpoint<SignedIn, NoBody, League>(
        .post, "/v1/teams/{id}/leagues/{leagueId}/accept", owner: .catalog,
        summary: "Accept a league's request to add my team (team manager only): the team joins the league",
        problems: [.forbidden, .sportMismatch])
    public static let declineLeague = Endpoint<SignedIn, NoBody, NoContent>(
        .post, "/v1/teams/{id}/leagues/{leagueId}/decline", owner: .catalog,
        summary: "Decline a league's request to add my team (team manager only)", problems: [.forbidden])

    // MARK: Teams
    public static let createTeam = Endpoint<SignedIn, CreateTeamRequest, Team>(
        .post, "/v1/teams", owner: .catalog, summary: "Create a team; you become its manager", status: 201, problems: [.contentRefused],
        traits: .idempotent)
    public static let teams = Endpoint<SignedIn, NoBody, Page<Team>>(
        .get, "/v1/teams", owner: .catalog,
        summary: "Teams: member=me for mine (with pending and invited), else a name search over public and protected teams",
        query: [teamMember, teamText, Query.sport, Query.position] + Query.paging, traits: .conditional)
    /// `?member=me`: my teams rather than a search.
    public static let teamMember = Query.choice("member", MemberFilter.self)
    public static let teamText = Query.text("q", TeamSearch.text, description: "name substring, any case")
    public static let team = Endpoint<SignedIn, NoBody, Team>(
        .get, "/v1/teams/{id}", owner: .catalog,
        summary: "A team (404 when private and you have no standing). A protected or private team's place only for its members, "
            + "with distanceMeters from lat/lng for anyone; where the location gate is on, a public team's only for members and "
            + "holders of the location entitlement",
        query: [Query.position], traits: .conditional)
    public static let updateTeam = Endpoint<SignedIn, UpdateTeamRequest, Team>(
        .patch, "/v1/teams/{id}", owner: .catalog,
        summary: "Change a team (manager only); logoMediaId is one of my completed teamLogo uploads, null removes the logo",
        problems: [.forbidden, .contentRefused, .mediaNotAttachable, .dependencyUnavailable])
    public static let deleteTeam = Endpoint<SignedIn, NoBody, NoContent>(
        .delete, "/v1/teams/{id}", owner: .catalog, summary: "Delete a team (manager only)", problems: [.forbidden])
    public static let members = Endpoint<SignedIn, NoBody, Page<TeamMember>>(
        .get, "/v1/teams/{id}/members", owner: .catalog, summary: "Roster with roles; the manager also sees pending and invited",
        problems: [.dependencyUnavailable], traits: .conditional)
    public static let joinTeam = Endpoint<SignedIn, NoBody, Team>(
        .post, "/v1/teams/{id}/join", owner: .catalog,
        summary: "Join: public → player, protected → pending, private → only when invited (403 otherwise). Where the join gate is "
            + "on, only with the join entitlement, unless invited",
        problems: [.forbidden, .entitlementRequired], traits: .idempotent)
    public static let inviteToTeam = Endpoint<SignedIn, InviteRequest, InviteResult>(
        .post, "/v1/teams/{id}/invites", owner: .catalog, summary: "Invite players (manager only)",
        problems: [.forbidden, .dependencyUnavailable], traits: .idempotent)
    public static let approveTeamRequest = Endpoint<SignedIn, NoBody, NoContent>(
        .post, "/v1/teams/{id}/requests/{userId}/approve", owner: .catalog, summary: "Approve a request to join (manager only)",
        problems: [.forbidden], traits: .idempotent)
    public static let declineTeamRequest = Endpoint<SignedIn, NoBody, NoContent>(
        .post, "/v1/teams/{id}/requests/{userId}/decline", owner: .catalog, summary: "Decline a request to join (manager only)",
        problems: [.forbidden], traits: .idempotent)
    public static let removeMember = Endpoint<SignedIn, NoBody, NoContent>(
        .delete, "/v1/teams/{id}/members/{userId}", owner: .catalog,
        summary: "Remove a member (manager), or leave, withdraw a request or decline an invitation yourself",
        problems: [.forbidden, .managerCannotLeave])

    // MARK: Courses and venues
    public static let createCourse = Endpoint<SignedIn, CreateCourseRequest, Course>(
        .post, "/v1/courses", owner: .catalog, summary: "Create a disc golf course (administrators)", status: 201,
        problems: [.forbidden], traits: .idempotent)
    public static let courses = Endpoint<Anyone, NoBody, Page<Course>>(
        .get, "/v1/courses", owner: .catalog, summary: "Courses by name; q keeps those whose name holds it",
        query: [courseText] + Query.paging)
    public static let courseText = Query.text("q", TeamSearch.text, description: "name substring, any case")
    public static let course = Endpoint<Anyone, NoBody, Course>(
        .get, "/v1/courses/{id}", owner: .catalog, summary: "A course with its holes", traits: .conditional)
    public static let updateCourse = Endpoint<SignedIn, UpdateCourseRequest, Course>(
        .patch, "/v1/courses/{id}", owner: .catalog, summary: "Rename, move or change a course's website (administrators)",
        problems: [.forbidden])
    public static let deleteCourse = Endpoint<SignedIn, NoBody, NoContent>(
        .delete, "/v1/courses/{id}", owner: .catalog,
        summary: "Delete a course (administrators); rounds played on it keep their card, holes and pars", problems: [.forbidden])
    public static let saveHole = Endpoint<SignedIn, UpdateHoleRequest, Course>(
        .put, "/v1/courses/{id}/holes/{number}", owner: .catalog,
        summary: "Replace a hole, or add the next one (administrators); tee and basket may wait until surveyed",
        pathParameters: ["number": .integer(1...Hole.maxNumber)], problems: [.forbidden, .validationFailed])
    public static let deleteHole = Endpoint<SignedIn, NoBody, Course>(
        .delete, "/v1/courses/{id}/holes/{number}", owner: .catalog,
        summary: "Remove a hole (administrators); the holes after it move up one number. A course keeps at least one hole",
        pathParameters: ["number": .integer(1...Hole.maxNumber)], problems: [.forbidden, .validationFailed])
    public static let navigation = Endpoint<Anyone, NoBody, Navigation>(
        .get, "/v1/courses/{id}/navigation", owner: .catalog,
        summary: "Distance and bearing from where I stand to a hole's tee and basket, and the next tee when it is known; "
            + "409 NO_HOLE_POSITIONS for a hole whose tee or basket is not surveyed",
        query: [Query.place, navigationHole], problems: [.noHolePositions])
    public static let navigationHole = Query.integer("hole", 1...Hole.maxNumber, fallback: 1, description: "a hole of the course")
    public static let weather = Endpoint<Anyone, NoBody, Weather>(
        .get, "/v1/courses/{id}/weather", owner: .catalog, summary: "Current weather at the course, cached for a few minutes",
        problems: [.weatherUnavailable])
    public static let createVenue = Endpoint<SignedIn, CreateVenueRequest, Venue>(
        .post, "/v1/venues", owner: .catalog, summary: "Create a venue (administrators)", status: 201, problems: [.forbidden],
        traits: .idempotent)
    public static let venues = Endpoint<Anyone, NoBody, Page<Venue>>(
        .get, "/v1/venues", owner: .catalog, summary: "Venues by name", query: Query.paging)
    public static let venue = Endpoint<Anyone, NoBody, Venue>(.get, "/v1/venues/{id}", owner: .catalog, summary: "A venue")

    // MARK: News
    public static let news = Endpoint<Anyone, NoBody, Page<NewsArticle>>(
        .get, "/v1/news", owner: .catalog,
        summary: "News, newest first (with bookmarked when signed in); country and language keep the articles for that country "
            + "and in that language",
        query: [Query.sport, newsCountry, newsLanguage] + Query.paging, traits: .optionalSignIn)
    public static let newsCountry = Query.optional(
        "country", NewsArticle.countrySchema, description: "ISO 3166-1 alpha-2", parse: NewsArticle.country(_:), text: { $0 })
    public static let newsLanguage = Query.optional(
        "language", NewsArticle.languageSchema, description: "ISO 639-1", parse: NewsArticle.language(_:), text: { $0 })
    public static let bookmarks = Endpoint<SignedIn, NoBody, Page<NewsArticle>>(
        .get, "/v1/news/bookmarks", owner: .catalog, summary: "My saved articles, most recently saved first", query: Query.paging)
    public static let article = Endpoint<Anyone, NoBody, NewsArticle>(
        .get, "/v1/news/{id}", owner: .catalog, summary: "An article", traits: .optionalSignIn)
    public static let bookmark = Endpoint<SignedIn, NoBody, NoContent>(
        .put, "/v1/news/{id}/bookmark", owner: .catalog, summary: "Save an article (idempotent)")
    public static let removeBookmark = Endpoint<SignedIn, NoBody, NoContent>(
        .delete, "/v1/news/{id}/bookmark", owner: .catalog, summary: "Forget a saved article (idempotent)")
    public static let publishNews = Endpoint<SignedIn, NewsIngestRequest, NewsIngestResult>(
        .post, "/v1/news", owner: .catalog,
        summary: "Publish articles (administrators); an article whose url is already known is left as it is", problems: [.forbidden])

    public static let all: [APIOperation] = [
        sports.operation, createLeague.operation, leagues.operation, league.operation, leagueTeams.operation,
        updateLeague.operation, addLeagueTeam.operation, deleteLeague.operation, acceptLeague.operation, declineLeague.operation,
        createTeam.operation, teams.operation, team.operation, updateTeam.operation,
        deleteTeam.operation, members.operation, joinTeam.operation, inviteToTeam.operation, approveTeamRequest.operation,
        declineTeamRequest.operation, removeMember.operation, createCourse.operation, courses.operation, course.operation,
        saveHole.operation, updateCourse.operation, deleteCourse.operation, deleteHole.operation, navigation.operation, weather.operation,
        createVenue.operation, venues.operation, venue.operation,
        news.operation, bookmarks.operation, article.operation, bookmark.operation, removeBookmark.operation,
        publishNews.operation,
    ]
}
