import Contracts
import Foundation
import ServiceKitTesting
import Testing

@Suite("A deleted account in catalog")
struct AccountErasureTests {
    @Test(
        "its team passes to the longest-standing player, a team with nobody left goes, it leaves the teams it played in, and its league passes to a team's manager",
        arguments: TestStore.all)
    func erased(store: TestStore) async throws {
        try await CatalogHarness.with(store: store, config: ["auth.events.subscribers": "catalog"]) { h in
            let ada = try await h.player("Ada Leaving"), bo = try await h.player("Bo First"), cy = try await h.player("Cy Second")
            let dan = try await h.player("Dan Manager")
            let managed = try await h.createTeam(ada.accessToken, name: "Ada's Aces")
            for player in [bo, cy] {
                _ = try expect(200, try await h.catalog.call(CatalogAPI.joinTeam, managed.id, token: player.accessToken))
            }
            let solo = try await h.createTeam(ada.accessToken, name: "Ada Alone")
            let dans = try await h.createTeam(dan.accessToken, name: "Dan's Dashers")
            _ = try expect(200, try await h.catalog.call(CatalogAPI.joinTeam, dans.id, token: ada.accessToken))
            let league = try expect(
                201, try await h.catalog.call(CatalogAPI.createLeague, body: LeagueTests.league("Ada League"), token: ada.accessToken)
            ).decode(League.self)
            _ = try expect(
                202,
                try await h.catalog.call(
                    CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: dans.id), token: ada.accessToken))
            _ = try expect(200, try await h.catalog.call(CatalogAPI.acceptLeague, dans.id, league.id, token: dan.accessToken))

            _ = try expect(
                204,
                try await h.auth.call(
                    AuthAPI.deleteMe, body: DeleteAccountRequest(password: "correct horse battery"), token: ada.accessToken))
            let passed = try await poll {
                try await h.catalog.value(CatalogAPI.team, managed.id, token: bo.accessToken)
            } until: {
                $0.managerId == bo.user.id
            }
            #expect(passed.membership == .manager && passed.memberCount == 2)
            #expect(try await h.catalog.call(CatalogAPI.team, solo.id, token: bo.accessToken).status == 404)
            #expect(try await h.catalog.value(CatalogAPI.team, dans.id, token: dan.accessToken).memberCount == 1)
            #expect(try await h.catalog.value(CatalogAPI.league, league.id, token: dan.accessToken).managerId == dan.user.id)
        }
    }
}
