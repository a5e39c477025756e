import Contracts
import Crypto
import Foundation
import HuddleEffects
import NIOHTTP1
import SQLKit
import ServiceKitTesting
import ServiceStore
import Testing

@Suite("Teams")
struct TeamTests {
    @Test("The creator of a team is its manager and can read, rename and delete it", arguments: TestStore.all)
    func createReadUpdateDelete(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let manager = try await h.player("Maria Manager")
            let team = try await h.createTeam(manager.accessToken)
            #expect(team.managerId == manager.user.id)
            #expect(team.membership == .manager)
            #expect(team.memberCount == 1)

            let read = try await h.catalog.call(CatalogAPI.team, team.id, token: manager.accessToken).decode(Team.self)
            #expect(read.name == "Tallinn Spikers" && read.location?.address == "Tallinn")

            let renamed = try await h.catalog.call(
                CatalogAPI.updateTeam, team.id, body: UpdateTeamRequest(name: "  Kalev Spikers ", skill: .advanced),
                token: manager.accessToken)
            #expect(renamed.status == 200)
            let updated = try renamed.decode(Team.self)
            #expect(updated.name == "Kalev Spikers" && updated.skill == .advanced && updated.sport == .volleyball)

            #expect(try await h.catalog.call(CatalogAPI.deleteTeam, team.id, token: manager.accessToken).status == 204)
            #expect(try await h.catalog.call(CatalogAPI.team, team.id, token: manager.accessToken).status == 404)
        }
    }

    @Test("Only the manager changes or deletes a team")
    func managerOnlyChanges() async throws {
        try await CatalogHarness.with { h in
            let manager = try await h.player()
            let other = try await h.player()
            let team = try await h.createTeam(manager.accessToken)
            let patch = try await h.catalog.call(
                CatalogAPI.updateTeam, team.id, body: UpdateTeamRequest(name: "Mine now"), token: other.accessToken)
            #expect(patch.status == 403)
            #expect(patch.problem?.code == "FORBIDDEN")
            #expect(try await h.catalog.call(CatalogAPI.deleteTeam, team.id, token: other.accessToken).status == 403)
            let still = try await h.catalog.call(CatalogAPI.team, team.id, token: manager.accessToken).decode(Team.self)
            #expect(still.name == team.name)
        }
    }

    @Test("Bad team input is a 422 naming each field, and nothing is created")
    func validation() async throws {
        try await CatalogHarness.with { h in
            let manager = try await h.player()
            var request = CatalogHarness.team()
            request.name = "x"
            request.location = Location(lat: 91, lng: -200)
            let response = try await h.catalog.call(CatalogAPI.createTeam, body: request, token: manager.accessToken)
            #expect(response.status == 422)
            #expect(Set(response.problem?.errors?.map(\.field) ?? []) == ["name", "location.lat", "location.lng"])

            let unknownSport = try await h.catalog.call(
                CatalogAPI.createTeam,
                rawBody: Data(
                    #"{"name":"Team","sport":"quidditch","privacy":"public","location":{"lat":1,"lng":1},"ageGroup":"adult","gender":"coed","skill":"any"}"#
                        .utf8),
                token: manager.accessToken, headers: ["Content-Type": "application/json"])
            #expect(unknownSport.status == 422)
            #expect(unknownSport.problem?.errors?.first?.field == "sport")
            #expect(try await h.catalog.call(CatalogAPI.createTeam, rawBody: Data("{".utf8), token: manager.accessToken).status == 400)

            let mine = try await h.catalog.call(CatalogAPI.teams, query: CatalogAPI.teamMember(.me), token: manager.accessToken).decode(
                Page<Team>.self)
            #expect(mine.items.isEmpty)
            #expect(try await h.catalog.call(CatalogAPI.teams).status == 401)
            #expect(try await h.catalog.call(CatalogAPI.team, "not-a-uuid", token: manager.accessToken).status == 404)
        }
    }

    @Test("Joining a public team makes a player at once", arguments: TestStore.all)
    func publicJoin(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let manager = try await h.player("Maria Manager")
            let player = try await h.player("Pete Player")
            let team = try await h.createTeam(manager.accessToken, privacy: .public)
            let joined = try await h.catalog.call(CatalogAPI.joinTeam, team.id, token: player.accessToken)
            #expect(joined.status == 200)
            #expect(try joined.decode(Team.self).membership == .player)
            #expect(try joined.decode(Team.self).memberCount == 2)
            // Joining again changes nothing.
            #expect(try await h.catalog.call(CatalogAPI.joinTeam, team.id, token: player.accessToken).decode(Team.self).memberCount == 2)

            let roster = try await h.catalog.call(CatalogAPI.members, team.id, token: player.accessToken).decode(Page<TeamMember>.self)
            #expect(
                roster.items == [
                    TeamMember(userId: manager.user.id, name: "Maria Manager", role: .manager),
                    TeamMember(userId: player.user.id, name: "Pete Player", role: .player),
                ])
        }
    }

    /// Unlocked on PostgreSQL, sixteen approvals at once answered 204 six times, each telling the player.
    @Test(
        "A request decided from several devices at once is decided once; a player leaving twice at once leaves once",
        arguments: TestStore.all)
    func decisionsAtOnce(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let manager = try await h.player("Maria Manager")
            let asker = try await h.player("Ann Asker"), other = try await h.player("Otto Other")
            let team = try await h.createTeam(manager.accessToken, privacy: .protected)
            for user in [asker, other] { _ = try await expect(200, h.catalog.call(CatalogAPI.joinTeam, team.id, token: user.accessToken)) }

            let approvals = try await (0..<16).concurrentMap { _ in
                try await h.catalog.call(CatalogAPI.approveTeamRequest, team.id, asker.user.id, token: manager.accessToken).status
            }
            #expect(approvals.sorted() == [204] + Array(repeating: 404, count: 15))
            let decisions = try await (0..<16).concurrentMap { index in
                let decide = index.isMultiple(of: 2) ? CatalogAPI.approveTeamRequest : CatalogAPI.declineTeamRequest
                return try await h.catalog.call(decide, team.id, other.user.id, token: manager.accessToken).status
            }
            #expect(decisions.sorted() == [204] + Array(repeating: 404, count: 15))

            let leaving = try await (0..<2).concurrentMap { _ in
                try await h.catalog.call(CatalogAPI.removeMember, team.id, asker.user.id, token: asker.accessToken).status
            }
            #expect(leaving.sorted() == [204, 404])
            let members = try await h.catalog.value(CatalogAPI.members, team.id, token: manager.accessToken).items
            #expect(!members.contains { $0.userId == asker.user.id })
        }
    }

    @Test("A protected team turns a join into a request the manager approves or declines", arguments: TestStore.all)
    func protectedJoin(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let manager = try await h.player("Maria Manager")
            let asker = try await h.player("Ann Asker")
            let declined = try await h.player("Dan Declined")
            let team = try await h.createTeam(manager.accessToken, privacy: .protected)

            for user in [asker, declined] {
                let response = try await h.catalog.call(CatalogAPI.joinTeam, team.id, token: user.accessToken)
                #expect(try response.decode(Team.self).membership == .pending)
            }
            // A pending request is not membership: the roster others see does not show it, the manager's does.
            let seenByAsker = try await h.catalog.call(CatalogAPI.members, team.id, token: asker.accessToken).decode(
                Page<TeamMember>.self)
            #expect(seenByAsker.items.map(\.role) == [.manager])
            let seenByManager = try await h.catalog.call(CatalogAPI.members, team.id, token: manager.accessToken)
                .decode(Page<TeamMember>.self)
            #expect(seenByManager.items.map(\.role) == [.manager, .pending, .pending])

            // Only the manager decides.
            let selfApproval = try await h.catalog.call(CatalogAPI.approveTeamRequest, team.id, asker.user.id, token: asker.accessToken)
            #expect(selfApproval.status == 403)

            #expect(
                try await h.catalog.call(CatalogAPI.approveTeamRequest, team.id, asker.user.id, token: manager.accessToken).status == 204
            )
            #expect(
                try await h.catalog.call(CatalogAPI.declineTeamRequest, team.id, declined.user.id, token: manager.accessToken).status
                    == 204)
            // There is no request left to decide.
            #expect(
                try await h.catalog.call(CatalogAPI.approveTeamRequest, team.id, declined.user.id, token: manager.accessToken).status
                    == 404)

            let after = try await h.catalog.call(CatalogAPI.members, team.id, token: manager.accessToken).decode(Page<TeamMember>.self)
            #expect(after.items.map(\.userId) == [manager.user.id, asker.user.id])
            #expect(after.items.map(\.role) == [.manager, .player])
            let mine = try await h.catalog.call(CatalogAPI.teams, query: CatalogAPI.teamMember(.me), token: declined.accessToken).decode(
                Page<Team>.self)
            #expect(mine.items.isEmpty)
        }
    }

    @Test("A private team is invisible to outsiders and joined only by invitation", arguments: TestStore.all)
    func privateTeam(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let manager = try await h.player("Maria Manager")
            let outsider = try await h.player("Olga Outsider")
            let friend = try await h.player("Fred Friend")
            let team = try await h.createTeam(manager.accessToken, name: "Secret Six", privacy: .private)

            #expect(try await h.catalog.call(CatalogAPI.team, team.id, token: outsider.accessToken).status == 404)
            #expect(try await h.catalog.call(CatalogAPI.members, team.id, token: outsider.accessToken).status == 404)
            #expect(try await h.catalog.call(CatalogAPI.joinTeam, team.id, token: outsider.accessToken).status == 404)
            let search = try await h.catalog.call(CatalogAPI.teams, query: CatalogAPI.teamText("secret"), token: outsider.accessToken)
                .decode(Page<Team>.self)
            #expect(search.items.isEmpty)

            // Outsiders cannot invite themselves in.
            let selfInvite = try await h.catalog.call(
                CatalogAPI.inviteToTeam, team.id, body: InviteRequest(userIds: [outsider.user.id]), token: outsider.accessToken)
            #expect(selfInvite.status == 404)

            let invite = try await h.catalog.call(
                CatalogAPI.inviteToTeam, team.id, body: InviteRequest(userIds: [friend.user.id, manager.user.id]),
                token: manager.accessToken)
            #expect(try invite.decode(InviteResult.self) == InviteResult(invited: [friend.user.id], unchanged: [manager.user.id]))
            let seen = try await h.catalog.call(CatalogAPI.team, team.id, token: friend.accessToken).decode(Team.self)
            #expect(seen.membership == .invited)
            let mine = try await h.catalog.call(CatalogAPI.teams, query: CatalogAPI.teamMember(.me), token: friend.accessToken).decode(
                Page<Team>.self)
            #expect(mine.items.map(\.membership) == [.invited])

            let joined = try await h.catalog.call(CatalogAPI.joinTeam, team.id, token: friend.accessToken).decode(Team.self)
            #expect(joined.membership == .player && joined.memberCount == 2)
        }
    }

    @Test("Turning down an invitation to a private team hides it again; the manager joining changes nothing")
    func privateJoinForbidden() async throws {
        try await CatalogHarness.with { h in
            let manager = try await h.player()
            let player = try await h.player()
            let team = try await h.createTeam(manager.accessToken, privacy: .private)
            _ = try await h.catalog.call(
                CatalogAPI.inviteToTeam, team.id, body: InviteRequest(userIds: [player.user.id]), token: manager.accessToken)
            // The player turns the invitation down, then changes their mind: they are no longer invited.
            #expect(try await h.catalog.call(CatalogAPI.removeMember, team.id, player.user.id, token: player.accessToken).status == 204)
            #expect(try await h.catalog.call(CatalogAPI.joinTeam, team.id, token: player.accessToken).status == 404)
            #expect(
                try await h.catalog.call(CatalogAPI.joinTeam, team.id, token: manager.accessToken).decode(Team.self).membership == .manager)
        }
    }

    @Test("Invites name existing players only")
    func inviteUnknownUser() async throws {
        try await CatalogHarness.with { h in
            let manager = try await h.player()
            let team = try await h.createTeam(manager.accessToken)
            let response = try await h.catalog.call(
                CatalogAPI.inviteToTeam, team.id, body: InviteRequest(userIds: [UserID()]), token: manager.accessToken)
            #expect(response.status == 422)
            #expect(response.problem?.errors?.first?.field == "userIds[0]")
            let notManager = try await h.player()
            let forbidden = try await h.catalog.call(
                CatalogAPI.inviteToTeam, team.id, body: InviteRequest(userIds: [manager.user.id]), token: notManager.accessToken)
            #expect(forbidden.status == 403)
        }
    }

    @Test("Players leave, managers remove others, and nobody else removes anyone")
    func leavingAndRemoving() async throws {
        try await CatalogHarness.with { h in
            let manager = try await h.player()
            let first = try await h.player()
            let second = try await h.player()
            let team = try await h.createTeam(manager.accessToken)
            for user in [first, second] { _ = try await h.catalog.call(CatalogAPI.joinTeam, team.id, token: user.accessToken) }

            #expect(try await h.catalog.call(CatalogAPI.removeMember, team.id, second.user.id, token: first.accessToken).status == 403)
            #expect(try await h.catalog.call(CatalogAPI.removeMember, team.id, first.user.id, token: first.accessToken).status == 204)
            #expect(try await h.catalog.call(CatalogAPI.removeMember, team.id, second.user.id, token: manager.accessToken).status == 204)
            let managerLeaves = try await h.catalog.call(CatalogAPI.removeMember, team.id, manager.user.id, token: manager.accessToken)
            #expect(managerLeaves.status == 409)
            #expect(try await h.catalog.call(CatalogAPI.removeMember, team.id, first.user.id, token: manager.accessToken).status == 404)
            let now = try await h.catalog.call(CatalogAPI.team, team.id, token: manager.accessToken).decode(Team.self)
            #expect(now.memberCount == 1)
        }
    }

    @Test("Name search finds public and protected teams by any part of the name, paged by name", arguments: TestStore.all)
    func search(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let manager = try await h.player()
            for (name, privacy) in [
                ("Tartu Volley A", Privacy.public), ("Tartu Volley B", .protected), ("Tartu Volley C", .private),
                ("Pärnu Volley", .public), ("100% Volley_", .public),
            ] {
                _ = try await h.createTeam(manager.accessToken, name: name, privacy: privacy)
            }
            _ = try await h.createTeam(manager.accessToken, name: "Tartu Kickers", sport: .soccer)
            let searcher = try await h.player()

            let first = try await h.catalog.call(
                CatalogAPI.teams, query: CatalogAPI.teamText("TARTU") + Query.sport(.volleyball) + Query.limit(1),
                token: searcher.accessToken
            )
            .decode(
                Page<Team>.self)
            #expect(first.items.map(\.name) == ["Tartu Volley A"])
            let cursor = try #require(first.nextCursor)
            let second = try await h.catalog.call(
                CatalogAPI.teams, query: CatalogAPI.teamText("TARTU") + Query.sport(.volleyball) + Query.limit(1) + Query.cursor(cursor),
                token: searcher.accessToken
            )
            .decode(Page<Team>.self)
            #expect(second.items.map(\.name) == ["Tartu Volley B"])
            #expect(second.nextCursor == nil)

            let literal = try await h.catalog.call(CatalogAPI.teams, rawQuery: "q=%25%20volley_", token: searcher.accessToken).decode(
                Page<Team>.self)
            #expect(literal.items.map(\.name) == ["100% Volley_"])
            let unicode = try await h.catalog.call(CatalogAPI.teams, rawQuery: "q=p%C3%A4rnu", token: searcher.accessToken).decode(
                Page<Team>.self)
            #expect(unicode.items.map(\.name) == ["Pärnu Volley"])
            #expect(try await h.catalog.call(CatalogAPI.teams, rawQuery: "sport=quidditch", token: searcher.accessToken).status == 422)
            #expect(try await h.catalog.call(CatalogAPI.teams, rawQuery: "cursor=%%%", token: searcher.accessToken).status == 422)
            // The shape of a cursor (base64url), but not one this list gave out.
            #expect(try await h.catalog.call(CatalogAPI.teams, rawQuery: "cursor=QUFB", token: searcher.accessToken).status == 422)
            #expect(try await h.catalog.call(CatalogAPI.teams, rawQuery: "sport=", token: searcher.accessToken).status == 422)
            #expect(
                try await h.catalog.call(CatalogAPI.teams, rawQuery: "q=%20%0C", token: searcher.accessToken).decode(Page<Team>.self).items
                    .count > 1)
        }
    }
}

@Suite("Retried writes")
struct IdempotencyTests {
    @Test(
        "a key whose first request died with its instance answers 409 for the pending time, then the retry is served",
        arguments: TestStore.all)
    func diedRequestIsReleased(store: TestStore) async throws {
        // A file the test can open beside catalog, on SQLite; a fresh database on PostgreSQL.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("idempotency-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let url = store == .sqlite ? "sqlite:\(file)" : try await store.freshDatabaseURL()
        let clock = SettableClock(Date())
        let config = ["catalog.db.url": url, "catalog.idempotency.pending.ms": "30000"]
        try await CatalogHarness.with(store: store, config: config, effects: Effects(now: { clock.now })) { h in
            let manager = try await h.player()
            let body = try HuddleJSON.encoder.encode(CatalogHarness.team(name: "Retried FC"))
            // What an instance killed in the middle of the request leaves: the key claimed, no answer kept.
            var digest = SHA256()
            digest.update(data: Data("POST /v1/teams\n".utf8))
            digest.update(data: body)
            let fingerprint = digest.finalize().map { String(format: "%02x", $0) }.joined()
            let database = try await Database.open(url: url, now: Effects.system.now, logger: .quiet("idempotency-test"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await database.run() }
                defer { group.cancelAll() }
                try await database.transaction { sql in
                    try await sql.insert(into: "idempotency_keys").columns("user_id", "key", "fingerprint", "created_at")
                        .values(SQLBind(manager.user.id.description), SQLBind("died"), SQLBind(fingerprint), SQLBind(clock.now)).run()
                }
            }
            let retry = {
                try await h.catalog.call(
                    CatalogAPI.createTeam, rawBody: body, token: manager.accessToken, headers: ["Idempotency-Key": "died"])
            }
            #expect(try await retry().status == 409)
            clock.advance(by: 29)
            #expect(try await retry().status == 409)
            clock.advance(by: 2)
            #expect(try await retry().status == 201)
            #expect(try await retry().header("Idempotent-Replayed") == "true")
            let mine = try await h.catalog.value(CatalogAPI.teams, query: CatalogAPI.teamMember(.me), token: manager.accessToken)
            #expect(mine.items.map(\.name) == ["Retried FC"])
        }
    }

    @Test("A create retried with the same Idempotency-Key makes one team and answers the same", arguments: TestStore.all)
    func retriedCreate(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let manager = try await h.player()
            let key = ["Idempotency-Key": "create-team-1"]
            let first = try await h.catalog.call(
                CatalogAPI.createTeam, body: CatalogHarness.team(), token: manager.accessToken, headers: key)
            let second = try await h.catalog.call(
                CatalogAPI.createTeam, body: CatalogHarness.team(), token: manager.accessToken, headers: key)
            #expect(first.status == 201 && second.status == 201)
            #expect(try first.decode(Team.self).id == second.decode(Team.self).id)
            #expect(second.header("Idempotent-Replayed") == "true")
            let mine = try await h.catalog.call(CatalogAPI.teams, query: CatalogAPI.teamMember(.me), token: manager.accessToken).decode(
                Page<Team>.self)
            #expect(mine.items.count == 1)

            // The same key with another body is a mistake, not a retry.
            let other = try await h.catalog.call(
                CatalogAPI.createTeam, body: CatalogHarness.team(name: "Other Team"), token: manager.accessToken, headers: key)
            #expect(other.status == 422 && other.problem?.errors?.first?.field == "Idempotency-Key")
            // Keys belong to one user: someone else's identical key is their own.
            let stranger = try await h.player()
            let theirs = try await h.catalog.call(
                CatalogAPI.createTeam, body: CatalogHarness.team(), token: stranger.accessToken, headers: key)
            #expect(try theirs.decode(Team.self).id != first.decode(Team.self).id)
            // A refused request is answered the same way again.
            var invalid = CatalogHarness.team()
            invalid.name = "x"
            let refusedKey = ["Idempotency-Key": "bad-team"]
            let refused = try await h.catalog.call(CatalogAPI.createTeam, body: invalid, token: manager.accessToken, headers: refusedKey)
            let refusedAgain = try await h.catalog.call(
                CatalogAPI.createTeam, body: invalid, token: manager.accessToken, headers: refusedKey)
            #expect(refused.status == 422 && refusedAgain.status == 422)
            #expect(refusedAgain.problem?.errors?.first?.field == "name")
        }
    }
}
