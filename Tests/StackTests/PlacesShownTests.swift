import Contracts
import Foundation
import ServiceKitTesting
import Testing

/// Where a team or a game is, as each viewer is shown it through every read that shows one: a
/// protected or private place to its members only (a stranger gets its distance), a public one to
/// anyone. A protected team's exact place used to be given to any signed-in stranger by the team,
/// the team search and a league's teams.
@Suite("Places as each viewer sees them")
struct PlacesShownTests {
    static let field = Location(lat: 59.4312, lng: 24.7421)
    /// About 1.1 km south of the field.
    static let near = Query.position(Coordinates(lat: 59.4212, lng: 24.7421))

    @Test(
        "a protected or private team's place is its members'; strangers get distanceMeters, in every read of it",
        arguments: StackTests.stores)
    func teamsAndTheirLeague(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let manager = try await gateway.register(name: "Mona Manager")
            let member = try await gateway.register(name: "Milo Member"), stranger = try await gateway.register(name: "Sid Stranger")
            let suffix = UUID().uuidString.prefix(6)
            let guarded = try await StackTests.volleyballTeam(
                "Guarded \(suffix)", privacy: .protected, at: Self.field, by: manager, through: gateway)
            let hidden = try await StackTests.volleyballTeam(
                "Hidden \(suffix)", privacy: .private, at: Self.field, by: manager, through: gateway)
            let open = try await StackTests.volleyballTeam(
                "Open \(suffix)", privacy: .public, at: Self.field, by: manager, through: gateway)
            // The member asked to join the protected team and was approved; was invited to the private one and accepted.
            _ = try await gateway.value(CatalogAPI.joinTeam, guarded.id, token: member.accessToken)
            _ = try await expect(204, gateway.call(CatalogAPI.approveTeamRequest, guarded.id, member.user.id, token: manager.accessToken))
            _ = try await gateway.value(
                CatalogAPI.inviteToTeam, hidden.id, body: InviteRequest(userIds: [member.user.id]), token: manager.accessToken)
            _ = try await gateway.value(CatalogAPI.joinTeam, hidden.id, token: member.accessToken)
            let league = try await StackTests.volleyballLeague("League \(suffix)", by: manager, through: gateway)
            for team in [guarded, open] {
                _ = try await gateway.value(
                    CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: team.id), token: manager.accessToken)
            }

            for (viewer, isMember) in [(manager, true), (member, true), (stranger, false)] {
                let token = viewer.accessToken
                let read = try await gateway.value(CatalogAPI.team, guarded.id, query: Self.near, token: token)
                let found = try #require(
                    try await gateway.value(CatalogAPI.teams, query: CatalogAPI.teamText("Guarded \(suffix)") + Self.near, token: token)
                        .items.first)
                let inLeague = try #require(
                    try await gateway.value(CatalogAPI.leagueTeams, league.id, query: Self.near, token: token).items.first {
                        $0.id == guarded.id
                    })
                for shown in [read, found, inLeague] {
                    #expect((shown.location != nil) == isMember, "\(viewer.user.name) sees the protected team's place: \(shown)")
                    #expect(
                        (1_000...1_300).contains(shown.distanceMeters ?? 0),
                        "\(viewer.user.name): \(String(describing: shown.distanceMeters))")
                }
                // A public team's place is anyone's.
                #expect(try await gateway.value(CatalogAPI.team, open.id, token: token).location == Self.field)
                let publicInLeague = try await gateway.value(CatalogAPI.leagueTeams, league.id, token: token).items.first {
                    $0.id == open.id
                }
                #expect(publicInLeague?.location == Self.field)
                // A private team is no stranger's to see at all.
                let privateRead = try await gateway.call(CatalogAPI.team, hidden.id, query: Self.near, token: token)
                if isMember {
                    #expect(try privateRead.decode(Team.self).location == Self.field)
                } else {
                    #expect(privateRead.status == 404)
                }
            }
            // Without lat and lng there is no distance to give.
            #expect(try await gateway.value(CatalogAPI.team, guarded.id, token: stranger.accessToken).distanceMeters == nil)
        }
    }

    @Test("a protected game's place is its players'; a stranger gets its distance", arguments: [StackTests.stores[0]])
    func games(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let organizer = try await gateway.register(name: "Olga Organiser"), stranger = try await gateway.register(name: "Sam Stranger")
            var request = StackTests.pickupGame(description: nil)
            request.privacy = .protected
            request.location = Self.field
            let game = try await gateway.value(GamesAPI.createGame, body: request, token: organizer.accessToken)
            let seen = try await gateway.value(GamesAPI.game, game.id, query: Self.near, token: stranger.accessToken)
            #expect(seen.location == nil)
            #expect((1_000...1_300).contains(seen.distanceMeters ?? 0))
            #expect(try await gateway.value(GamesAPI.game, game.id, token: organizer.accessToken).location == Self.field)
        }
    }
}
