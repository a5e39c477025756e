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

            for _ in 0..<2 {
                let added = try await h.catalog.call(
                    CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: team.id), token: commissioner.accessToken)
                #expect(try added.decode(League.self).teamCount == 1)
            }
            let teams = try await h.catalog.call(CatalogAPI.leagueTeams, league.id, token: teamManager.accessToken).decode(Page<Team>.self)
            #expect(teams.items.map(\.id) == [team.id])
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

            // A player of a team in the private league sees it too.
            let team = try await h.createTeam(viewer.accessToken)
            _ = try await h.catalog.call(
                CatalogAPI.addLeagueTeam, secret.id, body: AddLeagueTeamRequest(teamId: team.id), token: commissioner.accessToken)
            #expect(try await h.catalog.call(CatalogAPI.league, secret.id, token: viewer.accessToken).status == 200)
        }
    }
}
