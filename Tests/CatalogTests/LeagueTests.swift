import Contracts
import Foundation
import ServiceKitTesting
import Testing

@Suite("Leagues")
struct LeagueTests {
    static func league(_ name: String, sport: Sport = .volleyball, privacy: Privacy = .public) -> CreateLeagueRequest {
        CreateLeagueRequest(name: name, sport: sport, skill: .any, ageGroup: .adult, gender: .coed, privacy: privacy)
    }

    @Test("The league manager adds teams of the league's sport; nobody else does", arguments: TestStore.all)
    func addTeams(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let commissioner = try await h.player("Carl Commissioner")
            let created = try await h.catalog.call(
                CatalogAPI.createLeague, body: Self.league("Tallinn Beach League"), token: commissioner.accessToken)
            #expect(created.status == 201)
            let league = try created.decode(League.self)
            #expect(league.managerId == commissioner.user.id && league.teamCount == 0)

            let teamManager = try await h.player()
            let team = try await h.createTeam(teamManager.accessToken)
            let soccer = try await h.createTeam(teamManager.accessToken, name: "Kickers", sport: .soccer)

            let byOther = try await h.catalog.call(
                CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: team.id), token: teamManager.accessToken)
            #expect(byOther.status == 403)
            let mismatch = try await h.catalog.call(
                CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: soccer.id), token: commissioner.accessToken)
            #expect(mismatch.status == 422 && mismatch.problem?.code == "SPORT_MISMATCH")
            let unknown = try await h.catalog.call(
                CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: TeamID()), token: commissioner.accessToken)
            #expect(unknown.status == 422 && unknown.problem?.errors?.first?.field == "teamId")

            // Another manager's team is asked, once however often, and joins when its manager accepts.
            for _ in 0..<2 {
                let asked = try await h.catalog.call(
                    CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: team.id), token: commissioner.accessToken)
                #expect(asked.status == 202)
                #expect(
                    try asked.decode(LeagueTeamRequest.self) == LeagueTeamRequest(status: .pending, leagueId: league.id, teamId: team.id))
            }
            #expect(try await h.catalog.value(CatalogAPI.league, league.id, token: commissioner.accessToken).teamCount == 0)
            #expect(try await h.catalog.value(CatalogAPI.team, team.id, token: teamManager.accessToken).leagueRequests == [league.id])
            #expect(try await h.catalog.value(CatalogAPI.team, team.id, token: commissioner.accessToken).leagueRequests == nil)
            #expect(try await h.catalog.call(CatalogAPI.acceptLeague, team.id, league.id, token: commissioner.accessToken).status == 403)
            let accepted = try await h.catalog.call(CatalogAPI.acceptLeague, team.id, league.id, token: teamManager.accessToken)
            #expect(try accepted.decode(League.self).teamCount == 1)
            #expect(try await h.catalog.call(CatalogAPI.acceptLeague, team.id, league.id, token: teamManager.accessToken).status == 404)
            #expect(try await h.catalog.value(CatalogAPI.team, team.id, token: teamManager.accessToken).leagueRequests == nil)
            // In it already: adding it again changes nothing.
            let again = try await h.catalog.call(
                CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: team.id), token: commissioner.accessToken)
            #expect(again.status == 200)
            #expect(try again.decode(League.self).teamCount == 1)

            // A declined request leaves; the commissioner's own team joins at once.
            let other = try await h.createTeam(teamManager.accessToken, name: "Other Spikers")
            _ = try await h.catalog.call(
                CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: other.id), token: commissioner.accessToken)
            #expect(try await h.catalog.call(CatalogAPI.declineLeague, other.id, league.id, token: teamManager.accessToken).status == 204)
            #expect(try await h.catalog.call(CatalogAPI.acceptLeague, other.id, league.id, token: teamManager.accessToken).status == 404)
            let own = try await h.createTeam(commissioner.accessToken, name: "Commissioner's Own")
            let ownAdded = try await h.catalog.call(
                CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: own.id), token: commissioner.accessToken)
            #expect(ownAdded.status == 200)
            #expect(try ownAdded.decode(League.self).teamCount == 2)
            let teams = try await h.catalog.call(CatalogAPI.leagueTeams, league.id, token: teamManager.accessToken).decode(Page<Team>.self)
            #expect(teams.items.map(\.id) == [team.id, own.id])
        }
    }

    @Test("The manager renames and deletes the league; its teams stay; nobody else may", arguments: TestStore.all)
    func editAndDelete(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let commissioner = try await h.player("Carl Commissioner"), player = try await h.player()
            let league = try await h.catalog.value(CatalogAPI.createLeague, body: Self.league("Old Name"), token: commissioner.accessToken)
            let team = try await h.createTeam(commissioner.accessToken)
            _ = try await h.catalog.call(
                CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: team.id), token: commissioner.accessToken)
            let asked = try await h.createTeam(player.accessToken, name: "Asked Spikers")
            _ = try await h.catalog.call(
                CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: asked.id), token: commissioner.accessToken)
            let renamed = try await h.catalog.value(
                CatalogAPI.updateLeague, league.id, body: UpdateLeagueRequest(name: "New Name"), token: commissioner.accessToken)
            #expect(renamed.name == "New Name" && renamed.teamCount == 1)
            #expect(try await h.catalog.call(CatalogAPI.deleteLeague, league.id, token: player.accessToken).status == 403)
            #expect(try await h.catalog.call(CatalogAPI.deleteLeague, league.id, token: commissioner.accessToken).status == 204)
            #expect(try await h.catalog.call(CatalogAPI.league, league.id, token: commissioner.accessToken).status == 404)
            #expect(try await h.catalog.call(CatalogAPI.deleteLeague, league.id, token: commissioner.accessToken).status == 404)
            #expect(try await h.catalog.call(CatalogAPI.team, team.id, token: commissioner.accessToken).status == 200)
            // Its request went with it.
            #expect(try await h.catalog.value(CatalogAPI.team, asked.id, token: player.accessToken).leagueRequests == nil)
            #expect(try await h.catalog.call(CatalogAPI.acceptLeague, asked.id, league.id, token: player.accessToken).status == 404)
        }
    }

    @Test("Leagues list by sport, a page at a time, and private leagues only for those involved", arguments: TestStore.all)
    func listing(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let commissioner = try await h.player()
            for name in ["B League", "A League", "C League"] {
                _ = try await h.catalog.call(CatalogAPI.createLeague, body: Self.league(name), token: commissioner.accessToken)
            }
            _ = try await h.catalog.call(
                CatalogAPI.createLeague, body: Self.league("Soccer League", sport: .soccer), token: commissioner.accessToken)
            let secret = try await h.catalog.call(
                CatalogAPI.createLeague, body: Self.league("Z Secret", privacy: .private), token: commissioner.accessToken
            )
            .decode(League.self)

            let viewer = try await h.player()
            var names: [String] = []
            var cursor: String?
            repeat {
                let page = try await h.catalog.call(
                    CatalogAPI.leagues, query: Query.sport(.volleyball) + Query.limit(2) + Query.cursor(cursor),
                    token: viewer.accessToken
                ).decode(Page<League>.self)
                names += page.items.map(\.name)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(names == ["A League", "B League", "C League"])
            #expect(try await h.catalog.call(CatalogAPI.league, secret.id, token: viewer.accessToken).status == 404)

            let own = try await h.catalog.call(CatalogAPI.leagues, query: Query.sport(.volleyball), token: commissioner.accessToken).decode(
                Page<League>.self)
            #expect(own.items.map(\.name).last == "Z Secret")

            // A player of a team in the private league sees it too, once the team accepted.
            let team = try await h.createTeam(viewer.accessToken)
            _ = try await h.catalog.call(
                CatalogAPI.addLeagueTeam, secret.id, body: AddLeagueTeamRequest(teamId: team.id), token: commissioner.accessToken)
            #expect(try await h.catalog.call(CatalogAPI.league, secret.id, token: viewer.accessToken).status == 404)
            _ = try await h.catalog.call(CatalogAPI.acceptLeague, team.id, secret.id, token: viewer.accessToken)
            #expect(try await h.catalog.call(CatalogAPI.league, secret.id, token: viewer.accessToken).status == 200)
        }
    }
}
