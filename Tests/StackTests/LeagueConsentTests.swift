import Contracts
import Foundation
import HuddleKit
import ServiceKitTesting
import Testing

/// A league manager asks for another manager's team, and that manager answers, through HuddleKit.
@Suite("A team joins a league with its manager's consent")
struct LeagueConsentTests {
    @Test("HuddleKit adds my own team at once and asks another manager's, who sees the ask, accepts one and declines one")
    func consent() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let (commissioner, _, _) = try await HuddleKitTests.signedIn(gateway)
            let (captain, _, _) = try await HuddleKitTests.signedIn(gateway)
            func team(_ app: HuddleClient, _ name: String) async throws -> Team {
                try await app.send(
                    CatalogAPI.createTeam,
                    body: CreateTeamRequest(
                        name: name, sport: .volleyball, privacy: .public, location: Location(lat: 59.43, lng: 24.75), ageGroup: .adult,
                        gender: .coed, skill: .any))
            }
            let cup = try await commissioner.send(
                CatalogAPI.createLeague,
                body: CreateLeagueRequest(
                    name: "Kit Cup", sport: .volleyball, skill: .any, ageGroup: .adult, gender: .coed, privacy: .public))
            let own = try await team(commissioner, "Kit Own"), theirs = try await team(captain, "Kit Theirs")
            let other = try await team(captain, "Kit Other")
            guard case .added(let added) = try await commissioner.addTeam(own.id, toLeague: cup.id) else {
                Issue.record("my own team was not added at once")
                return
            }
            #expect(added.teamCount == 1)
            #expect(try await commissioner.addTeam(theirs.id, toLeague: cup.id) == .requested(.init(leagueId: cup.id, teamId: theirs.id)))
            _ = try await commissioner.addTeam(other.id, toLeague: cup.id)
            #expect(try await captain.send(CatalogAPI.team, theirs.id).leagueRequests == [cup.id])
            // Their manager is told, in the inbox (and on the phone), to answer on the team's page.
            #expect(
                try await eventually {
                    try await captain.send(NotifyAPI.inbox).items.contains {
                        $0.category == .invitation && $0.data.leagueId == cup.id && $0.data.teamId == theirs.id
                            && $0.body.contains("Kit Theirs")
                    }
                })
            #expect(try await captain.acceptLeague(cup.id, for: theirs.id).teamCount == 2)
            try await captain.declineLeague(cup.id, for: other.id)
            #expect(try await captain.send(CatalogAPI.team, other.id).leagueRequests == nil)
            #expect(try await commissioner.send(CatalogAPI.leagueTeams, cup.id).items.map(\.name) == ["Kit Own", "Kit Theirs"])
        }
    }
}
