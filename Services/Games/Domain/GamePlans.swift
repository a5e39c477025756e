import Contracts
import Foundation
import ServiceClients
import ServiceHTTP

/// A new game before it is stored, with who goes on its roster at once.
struct GamePlan: Sendable {
    var game: Game
    /// Team members, invited until they answer.
    var invited: [UserID]
    /// The organiser of a pick-up game takes the first slot.
    var going: [UserID]

    /// The plan once for each of `starts`, the same players on each: one game alone, or a series
    /// whose `seriesId` is its first game's.
    func series(starting starts: [Date], now: Date) -> [GamePlan] {
        guard starts.count > 1 else { return [self] }
        return starts.enumerated().map { index, start in
            var plan = self
            if index > 0 { plan.game.id = .timeOrdered(at: now) }
            plan.game.startsAt = start
            plan.game.seriesId = game.id
            return plan
        }
    }

    static func pickup(_ request: CreateGameRequest, _ fields: PickupFields, by user: UserID, now: Date) -> GamePlan {
        var game = Game(
            id: .timeOrdered(at: now), kind: .pickup, organizerId: user, startsAt: request.startsAt, timeZone: request.timeZone,
            sport: fields.sport, privacy: fields.privacy, ageGroup: fields.ageGroup, gender: fields.gender, skill: fields.skill,
            capacity: request.capacity, location: fields.location, description: request.description, createdAt: now)
        game.alreadyGoing = request.alreadyGoing.flatMap { $0 > 0 ? $0 : nil }
        return GamePlan(game: game, invited: [], going: [user])
    }
}

/// What a kind of game needs from its request, present: read once, so planning never unwraps.
enum GameKindFields {
    case team(TeamID)
    case league(LeagueID, home: TeamID, away: TeamID)
    case pickup(PickupFields)

    var isPickup: Bool {
        if case .pickup = self { return true }
        return false
    }
}

/// A pick-up game has no team to take its place and attributes from: the request gives them all.
struct PickupFields {
    var location: Location
    var sport: Sport
    var privacy: Privacy
    var ageGroup: AgeGroup
    var gender: Gender
    var skill: Skill
}

extension GameValidation {
    /// The fields each kind of game needs, or a problem naming each one missing.
    static func kindFields(_ request: CreateGameRequest) -> Result<GameKindFields, CommonError> {
        var errors: [Problem.FieldError] = []
        func need<Value>(_ value: Value?, _ field: String) -> Value? {
            if value == nil { errors.append(.invalid(field, "is required for a \(request.kind.rawValue) game")) }
            return value
        }
        let fields: GameKindFields?
        switch request.kind {
        case .team:
            fields = need(request.teamId, "teamId").map(GameKindFields.team)
        case .league:
            let league = need(request.leagueId, "leagueId"), home = need(request.homeTeamId, "homeTeamId")
            let away = need(request.awayTeamId, "awayTeamId")
            if let home, home == away { errors.append(.invalid("awayTeamId", "must differ from homeTeamId")) }
            fields = league.flatMap { league in home.flatMap { home in away.map { .league(league, home: home, away: $0) } } }
        case .pickup:
            let location = need(request.location, "location"), sport = need(request.sport, "sport")
            let privacy = need(request.privacy, "privacy"), ageGroup = need(request.ageGroup, "ageGroup")
            let gender = need(request.gender, "gender"), skill = need(request.skill, "skill")
            if let location, let sport, let privacy, let ageGroup, let gender, let skill {
                fields = .pickup(
                    PickupFields(location: location, sport: sport, privacy: privacy, ageGroup: ageGroup, gender: gender, skill: skill))
            } else {
                fields = nil
            }
        }
        guard let fields, errors.isEmpty else { return .failure(.validation(errors)) }
        return .success(fields)
    }
}

extension Games {
    /// Only the team's manager plans its games; the team's place and attributes are the defaults,
    /// the manager is going (unless `organizerGoing` is false) and every other member is invited.
    func teamGame(_ request: CreateGameRequest, team teamID: TeamID, by user: UserID, requestID: String) async throws -> GamePlan {
        let team = try await knownTeam(teamID, field: "teamId", for: user, requestID: requestID)
        guard team.managerId == user else { throw CommonError.forbidden("Only the team's manager plans its games.") }
        if let sport = request.sport, sport != team.sport {
            throw CommonError.invalid("sport", "a team game is played in the team's sport, \(team.sport.rawValue)")
        }
        let game = Game(
            id: .timeOrdered(at: now()), kind: .team, teamId: team.id, teamName: team.name, organizerId: user, startsAt: request.startsAt,
            timeZone: request.timeZone,
            sport: team.sport, privacy: request.privacy ?? team.privacy, ageGroup: request.ageGroup ?? team.ageGroup,
            gender: request.gender ?? team.gender, skill: request.skill ?? team.skill, capacity: request.capacity,
            location: request.location ?? team.location, description: request.description, createdAt: now())
        let members = try await members(of: [team.id], requestID: requestID)
        // The manager plays unless they say not, as a pick-up's organiser does.
        guard request.organizerGoing ?? true else { return GamePlan(game: game, invited: members, going: []) }
        return GamePlan(game: game, invited: members.filter { $0 != user }, going: [user])
    }

    /// Only the league's manager plans its games, between two of its teams; both teams are invited.
    func leagueGame(
        _ request: CreateGameRequest, league leagueID: LeagueID, home homeID: TeamID, away awayID: TeamID, by user: UserID,
        requestID: String
    ) async throws -> GamePlan {
        guard let league = try await catalog.league(leagueID, requestID: requestID), league.privacy != .private || league.managerId == user
        else { throw CommonError.invalid("leagueId", "no league with id \(leagueID)") }
        guard league.managerId == user else { throw CommonError.forbidden("Only the league's manager plans its games.") }
        let teams = try await catalog.teams(inLeague: league.id, requestID: requestID) ?? []
        let home = teams.first { $0.id == homeID }, away = teams.first { $0.id == awayID }
        guard let home, let away else {
            throw CommonError.validation(
                [(home, "homeTeamId"), (away, "awayTeamId")].filter { $0.0 == nil }.map {
                    .invalid($0.1, "is not a team of this league")
                })
        }
        let game = Game(
            id: .timeOrdered(at: now()), kind: .league, leagueId: league.id, homeTeamId: home.id, homeTeamName: home.name,
            awayTeamId: away.id,
            awayTeamName: away.name, organizerId: user, startsAt: request.startsAt, timeZone: request.timeZone, sport: league.sport,
            privacy: request.privacy ?? league.privacy, ageGroup: request.ageGroup ?? league.ageGroup,
            gender: request.gender ?? league.gender, skill: request.skill ?? league.skill, capacity: request.capacity,
            location: request.location ?? home.location, description: request.description, createdAt: now())
        return GamePlan(game: game, invited: try await members(of: [home.id, away.id], requestID: requestID), going: [])
    }

    /// A team the caller may know of; a private team they have no standing with is as unknown as a missing one.
    /// A venue a game is planned at; 422 naming `venueId` when catalog has none.
    func knownVenue(_ id: VenueID, requestID: String) async throws -> Venue {
        guard let venue = try await catalog.venue(id, requestID: requestID) else {
            throw CommonError.invalid("venueId", "no venue with id \(id)")
        }
        return venue
    }

    /// `request` with what `venue` gives a game there: its place unless the request names one, and
    /// for a pick-up game without a sport, the venue's only sport.
    static func atVenue(_ request: CreateGameRequest, _ venue: Venue?) -> CreateGameRequest {
        guard let venue else { return request }
        var request = request
        request.location = request.location ?? venue.location
        if request.kind == .pickup, request.sport == nil, venue.sports.count == 1 { request.sport = venue.sports.first }
        return request
    }

    private func knownTeam(_ id: TeamID, field: String, for user: UserID, requestID: String) async throws -> Team {
        let unknown = CommonError.invalid(field, "no team with id \(id)")
        guard let team = try await catalog.team(id, requestID: requestID) else { throw unknown }
        if team.privacy == .private, team.managerId != user,
            try await catalog.membership(of: user, in: id, requestID: requestID) == nil
        {
            throw unknown
        }
        return team
    }

    /// Managers and players of the teams, each once.
    private func members(of teams: [TeamID], requestID: String) async throws -> [UserID] {
        var members: [UserID] = []
        for team in teams {
            for member in try await catalog.members(of: team, requestID: requestID) ?? [] where member.role.isMember {
                if !members.contains(member.userId) { members.append(member.userId) }
            }
        }
        return members
    }
}
