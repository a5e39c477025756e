import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceClients
import ServiceFeatures
import ServiceHTTP
import ServiceStore

/// The team use cases: every privacy and role rule is checked here, on the server, whatever
/// screen the call came from. Each change commits with its event.
struct Teams: Sendable {
    let database: Database
    let teams: any TeamStore
    let auth: AuthClient
    /// The `location` and `join` gates, where `purchases.gates` turns them on.
    let gatekeeper: Gatekeeper
    /// Names with a filtered word are refused.
    let filter: ContentFilter
    let logos: Logos
    var outbox: Outbox { Outbox(now: now) }
    /// The clock: tests set it.
    let now: @Sendable () -> Date

    func create(_ request: CreateTeamRequest, by user: UserID) async throws -> Team {
        try FieldRules.require(CatalogValidation.name(request.name) + FieldRules.location(request.location))
        try filter.refuse(request.name, field: "name")
        let team = Team(
            id: TeamID(), name: request.name.trimmingBlanks, sport: request.sport, privacy: request.privacy,
            location: request.location, ageGroup: request.ageGroup, gender: request.gender, skill: request.skill,
            managerId: user, memberCount: 1, membership: .manager, createdAt: now())
        try await database.transaction { sql in
            try await teams.insert(team, on: sql)
            try await teams.setMembership(.manager, of: user, in: team.id, on: sql)
            try await publish(CatalogEvent.teamCreated, team, on: sql)
        }
        return team
    }

    /// The team as `viewer` may see it; hidden (404) when private and they have no standing. `locked`
    /// for a change: its row is held first, so a change reads the standings the one before it left.
    /// Unlocked on PostgreSQL, sixteen approvals of one request at once answered 204 six times, and
    /// the player was told six times.
    func visibleTeam(_ id: TeamID, to viewer: UserID, locked: Bool = false, on sql: any SQLDatabase) async throws -> Team {
        if locked { try await teams.lock(id, on: sql) }
        guard let team = try await teams.team(id, viewer: viewer, on: sql),
            TeamRules.canSee(team.privacy, standing: team.membership)
        else { throw CommonError.missing(id) }
        return try await HiddenSubjects().teams([team], for: viewer, on: sql).first.orMissing(id)
    }

    /// The team as `viewer` may see it; its manager also sees the leagues waiting for an answer.
    func team(_ id: TeamID, viewer: UserID, from position: Coordinates? = nil) async throws -> Team {
        try await database.read { sql in
            var team = try await shown([visibleTeam(id, to: viewer, on: sql)], to: viewer, from: position, on: sql)[0]
            if team.membership == .manager {
                let waiting = try await teams.leagueRequests(for: id, on: sql)
                team.leagueRequests = waiting.isEmpty ? nil : waiting
            }
            return team
        }
    }

    /// What names `shown` for a conditional read: each team's stored version (its members' and
    /// leagues' changes raise it) and what shapes it for the viewer beyond that: whether moderators
    /// hid it and whether its place was shown, which the viewer's entitlements decide.
    func tagParts(of shown: [Team]) async throws -> [String] {
        let versions = try await database.read { sql in
            try await RowVersions(of: "teams").versions(of: shown.map(\.id.description), on: sql)
        }
        return shown.map {
            "\($0.id)/\(versions[$0.id.description] ?? -1)/\($0.hidden == true ? "hidden" : "")/\($0.location == nil ? "placeHidden" : "placeShown")"
        }
    }

    /// The stored versions of `ids`, as parts of an entity tag.
    func tagParts(ofTeams ids: [TeamID]) async throws -> [String] {
        try await database.read { sql in try await RowVersions(of: "teams").tagParts(of: ids.map(\.description), on: sql) }
    }

    /// My teams (any standing) when `mine`, otherwise public and protected teams whose name contains `text`.
    func list(mine: Bool, text: String?, sport: Sport?, viewer: UserID, from position: Coordinates? = nil, page: PageRequest) async throws
        -> Page<Team>
    {
        let after = try NameCursor(page)
        let rows = try await database.read { sql in
            try await shown(
                HiddenSubjects().teams(
                    mine
                        ? try await teams.teams(of: viewer, sport: sport, after: after, limit: page.limit + 1, on: sql)
                        : try await teams.search(text: text, sport: sport, viewer: viewer, after: after, limit: page.limit + 1, on: sql),
                    for: viewer, on: sql),
                to: viewer, from: position, on: sql)
        }
        return page.page(rows) { NameCursor.after(name: $0.name, id: $0.id) }
    }

    /// Every public and protected team (what search may list), by name.
    func listed(page: PageRequest) async throws -> Page<Team> {
        let after = try NameCursor(page)
        let rows = try await database.read { sql in
            try await teams.search(text: nil, sport: nil, viewer: nil, after: after, limit: page.limit + 1, on: sql)
        }
        return page.page(rows) { NameCursor.after(name: $0.name, id: $0.id) }
    }

    func update(_ id: TeamID, with request: UpdateTeamRequest, by user: UserID) async throws -> Team {
        try FieldRules.require(
            (request.name.map { CatalogValidation.name($0) } ?? []) + (request.location.map { FieldRules.location($0) } ?? []))
        if let name = request.name { try filter.refuse(name, field: "name") }
        let subject = MediaSubject(.team, id)
        let logo = try await logos.attach(request.logoMediaId, as: .teamLogo, to: subject, by: user)
        let (updated, replaced) = try await database.transaction { sql in
            var team = try await managedTeam(id, by: user, on: sql)
            var replaced: MediaID?
            if request.logoMediaId != nil {
                replaced = try await teams.setLogo(logo, of: id, on: sql)
                team.logo = logo?.sizes
            }
            if let name = request.name { team.name = name.trimmingBlanks }
            if let privacy = request.privacy { team.privacy = privacy }
            if let location = request.location { team.location = location }
            if let ageGroup = request.ageGroup { team.ageGroup = ageGroup }
            if let gender = request.gender { team.gender = gender }
            if let skill = request.skill { team.skill = skill }
            if let recruiting = request.recruiting { team.recruiting = recruiting ? true : nil }
            try await teams.update(team, on: sql)
            try await publish(CatalogEvent.teamUpdated, team, on: sql)
            return (team, replaced)
        }
        await logos.release(replaced, from: subject)
        return updated
    }

    /// Takes off the team logos a deleted account uploaded (media deletes its uploads).
    func removeLogos(uploadedBy owner: UserID, on sql: any SQLDatabase) async throws {
        try await teams.removeLogos(uploadedBy: owner, on: sql)
    }

    func delete(_ id: TeamID, by user: UserID) async throws {
        let logo = try await database.transaction { sql in
            _ = try await managedTeam(id, by: user, on: sql)
            let logo = try await teams.setLogo(nil, of: id, on: sql)
            try await teams.delete(id, on: sql)
            try await outbox.append(
                CatalogEvent.teamDeleted, aggregateID: id.description, payload: CatalogEvent.TeamDeleted(teamId: id), on: sql)
            return logo
        }
        await logos.release(logo, from: MediaSubject(.team, id))
    }

    func join(_ id: TeamID, user: UserID) async throws -> Team {
        try await database.transaction { sql in
            let team = try await visibleTeam(id, to: user, locked: true, on: sql)
            switch TeamRules.join(team.privacy, standing: team.membership) {
            case .unchanged:
                return team
            case .refused:
                throw CommonError.forbidden("This team is private: you can join only when its manager invites you.")
            case .becomes(let role):
                // Joining on the manager's invitation is theirs to offer; joining of one's own accord is gated.
                if team.membership != .invited { try await gatekeeper.require(.join, of: user, on: sql) }
                return try await shown([setStanding(role, of: user, in: id, viewer: user, on: sql)], to: user, on: sql)[0]
            }
        }
    }

    /// The manager invites users; someone who had asked to join is let in at once.
    func invite(_ userIDs: [UserID], to id: TeamID, by manager: UserID) async throws -> InviteResult {
        let unique = try await auth.inviteeIDs(userIDs)
        return try await database.transaction { sql in
            _ = try await managedTeam(id, by: manager, on: sql)
            var invited: [UserID] = [], unchanged: [UserID] = []
            for user in unique {
                switch try await teams.membership(of: user, in: id, on: sql) {
                case nil:
                    _ = try await setStanding(.invited, of: user, in: id, viewer: manager, on: sql)
                    invited.append(user)
                case .pending:
                    _ = try await setStanding(.player, of: user, in: id, viewer: manager, on: sql)
                    invited.append(user)
                case .manager, .player, .invited:
                    unchanged.append(user)
                }
            }
            return InviteResult(invited: invited, unchanged: unchanged)
        }
    }

    /// The manager answers a request to join: approve makes a player, decline forgets it.
    func decide(_ id: TeamID, request user: UserID, approve: Bool, by manager: UserID) async throws {
        try await database.transaction { sql in
            _ = try await managedTeam(id, by: manager, on: sql)
            guard try await teams.membership(of: user, in: id, on: sql) == .pending else {
                throw CommonError.notFound("No pending request from \(user) for this team.")
            }
            if approve {
                _ = try await setStanding(.player, of: user, in: id, viewer: manager, on: sql)
            } else {
                try await removeStanding(of: user, in: id, on: sql)
            }
        }
    }

    func remove(_ target: UserID, from id: TeamID, by actor: UserID) async throws {
        try await database.transaction { sql in
            let team = try await visibleTeam(id, to: actor, locked: true, on: sql)
            let targetStanding = try await teams.membership(of: target, in: id, on: sql)
            switch TeamRules.remove(target, by: actor, actorStanding: team.membership, targetStanding: targetStanding) {
            case .hidden: throw CommonError.notFound("\(target) is not on this team.")
            case .managerCannotLeave: throw CatalogError.managerCannotLeave
            case .refused(let reason): throw CommonError.forbidden(reason)
            case .remove: try await removeStanding(of: target, in: id, on: sql)
            }
        }
    }

    /// The roster with names: managers see requests and invitations too; others see the team.
    func roster(_ id: TeamID, viewer: UserID, requestID: String) async throws -> [TeamMember] {
        let (team, memberships) = try await database.read { sql in
            let team = try await visibleTeam(id, to: viewer, on: sql)
            return (team, try await teams.memberships(of: id, on: sql))
        }
        let shown = team.membership == .manager ? memberships : memberships.filter { $0.role.isMember }
        let profiles = try await auth.profiles(shown.map(\.userId), requestID: requestID)
        return shown.map {
            TeamMember(userId: $0.userId, name: profiles[$0.userId]?.name ?? ShownWords.formerPlayer.localized, role: $0.role)
        }
    }

    // MARK: Helpers

    /// What `viewer` is shown of teams (`TeamView`): every read that shows a team to a player goes
    /// through here; `memberCount`, sport and the rest stay.
    func shown(_ teams: [Team], to viewer: UserID, from position: Coordinates? = nil, on sql: any SQLDatabase) async throws -> [Team] {
        // The gate is asked only when a team's place would be shown to a non-member.
        let asks = teams.contains { $0.membership?.isMember != true && $0.privacy.revealsExactLocation(toParticipant: false) }
        let unlocked = asks ? try await gatekeeper.allows(.location, to: viewer, on: sql) : true
        return teams.map { TeamView.shown($0, from: position, placeUnlocked: unlocked) }
    }

    /// 403 unless `user` manages the team (404 when they may not see it), read before a change's body is.
    func requireManager(of id: TeamID, user: UserID) async throws {
        let team = try await database.read { sql in try await visibleTeam(id, to: user, on: sql) }
        guard team.membership == .manager else { throw CommonError.forbidden("Only the team's manager can do this.") }
    }

    /// The team, locked for a change its manager makes.
    private func managedTeam(_ id: TeamID, by user: UserID, on sql: any SQLDatabase) async throws -> Team {
        let team = try await visibleTeam(id, to: user, locked: true, on: sql)
        guard team.membership == .manager else { throw CommonError.forbidden("Only the team's manager can do this.") }
        return team
    }

    func setStanding(_ role: Membership, of user: UserID, in id: TeamID, viewer: UserID, on sql: any SQLDatabase)
        async throws -> Team
    {
        let previous = try await teams.membership(of: user, in: id, on: sql)
        try await teams.setMembership(role, of: user, in: id, on: sql)
        return try await publishMembership(of: user, role: role, previous: previous, in: id, viewer: viewer, on: sql)
    }

    func removeStanding(of user: UserID, in id: TeamID, on sql: any SQLDatabase) async throws {
        let previous = try await teams.membership(of: user, in: id, on: sql)
        try await teams.removeMembership(of: user, in: id, on: sql)
        _ = try await publishMembership(of: user, role: nil, previous: previous, in: id, viewer: user, on: sql)
    }

    private func publishMembership(
        of user: UserID, role: Membership?, previous: Membership?, in id: TeamID, viewer: UserID, on sql: any SQLDatabase
    ) async throws -> Team {
        let team = try await teams.team(id, viewer: viewer, on: sql).orMissing(id)
        try await outbox.append(
            CatalogEvent.membershipChanged, aggregateID: id.description,
            payload: CatalogEvent.MembershipChanged(
                teamId: id, userId: user, role: role, previousRole: previous, memberCount: team.memberCount),
            on: sql)
        return team
    }

    func publish(_ type: EventType<CatalogEvent.TeamChanged>, _ team: Team, on sql: any SQLDatabase) async throws {
        var snapshot = team
        snapshot.membership = nil
        try await outbox.append(type, aggregateID: team.id.description, payload: CatalogEvent.TeamChanged(team: snapshot), on: sql)
    }
}

extension HiddenSubjects {
    /// Teams without those moderators hid, but for their manager, who sees them marked hidden.
    func teams(_ shown: [Team], for viewer: UserID, on sql: any SQLDatabase) async throws -> [Team] {
        try await unhidden(shown, .team, for: viewer, id: \.id.uuid, manager: \.managerId, marked: \.hidden, on: sql)
    }
}
