import Contracts
import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import SQLKit
import ServerContracts
import ServiceClients
import ServiceHTTP
import ServiceKitTesting
import Testing

@Suite("Catalog events")
struct EventDeliveryTests {
    @Test("A subscriber that was down while changes happened receives every event, in order, once", arguments: TestStore.all)
    func catchUpAfterDowntime(store: TestStore) async throws {
        // Nothing listens on port 1: the subscriber is down.
        let config = ["catalog.events.subscribers": "search"]
        try await CatalogHarness.with(store: store, config: config, directory: [.search: "http://127.0.0.1:1"]) { h in
            let manager = try await h.player()
            let player = try await h.player()
            let team = try await h.createTeam(manager.accessToken)
            _ = try await h.catalog.call(CatalogAPI.joinTeam, team.id, token: player.accessToken)
            _ = try await h.catalog.call(
                CatalogAPI.updateTeam, team.id, body: UpdateTeamRequest(name: "Renamed"), token: manager.accessToken)
            _ = try await h.catalog.call(CatalogAPI.removeMember, team.id, player.user.id, token: player.accessToken)
            let course = try await h.course()
            _ = try await h.catalog.call(CatalogAPI.createLeague, body: LeagueTests.league("League"), token: manager.accessToken)
            // A refused change writes no event.
            _ = try await h.catalog.call(CatalogAPI.updateTeam, team.id, body: UpdateTeamRequest(name: "x"), token: manager.accessToken)
            try await Task.sleep(for: .milliseconds(300))

            try await RecordingSubscriber.with { subscriber in
                h.stack.runner.directory.set(.search, url: subscriber.url)
                try await subscriber.waitFor(count: 6)
                try await Task.sleep(for: .milliseconds(300))
                let events = subscriber.events
                #expect(
                    events.map(\.type) == [
                        CatalogEvent.teamCreated.name, CatalogEvent.membershipChanged.name, CatalogEvent.teamUpdated.name,
                        CatalogEvent.membershipChanged.name, CatalogEvent.courseChanged.name, CatalogEvent.leagueCreated.name,
                    ])
                #expect(Set(events.map(\.id)).count == events.count)
                let renamed = try HuddleJSON.decoder.decode(CatalogEvent.TeamChanged.self, from: events[2].payload)
                #expect(renamed.team.name == "Renamed" && renamed.team.id == team.id)
                let left = try HuddleJSON.decoder.decode(CatalogEvent.MembershipChanged.self, from: events[3].payload)
                #expect(left.userId == player.user.id && left.role == nil && left.memberCount == 1)
                let changedCourse = try HuddleJSON.decoder.decode(CatalogEvent.CourseChanged.self, from: events[4].payload)
                #expect(changedCourse.course == course)
            }
        }
    }

    @Test("A redelivered event is applied once")
    func inboxDropsRepeats() async throws {
        try await RecordingSubscriber.with { subscriber in
            let event = EventEnvelope(type: "games.test.happened", aggregateID: "a", occurredAt: Date(), payload: Data("{}".utf8))
            let client = TestClient(baseURL: subscriber.url, internalCallers: TestStack.internalCallers.acting(as: .games))
            for _ in 0..<3 {
                let response = try await client.call(EventsAPI.deliver(to: .search), body: EventBatch(events: [event]))
                #expect(response.status == 204)
            }
            #expect(
                try await client.withoutCredential.call(EventsAPI.deliver(to: .search), body: EventBatch(events: [event])).status == 401)
            #expect(subscriber.events.map(\.id) == [event.id])
        }
    }

    @Test("Other services read teams, memberships, leagues and courses through CatalogClient", arguments: TestStore.all)
    func internalReads(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let manager = try await h.player()
            let player = try await h.player()
            let team = try await h.createTeam(manager.accessToken, privacy: .private)
            _ = try await h.catalog.call(
                CatalogAPI.inviteToTeam, team.id, body: InviteRequest(userIds: [player.user.id]), token: manager.accessToken)
            let league = try await h.catalog.call(
                CatalogAPI.createLeague, body: LeagueTests.league("Lake League"), token: manager.accessToken
            )
            .decode(League.self)
            _ = try await h.catalog.call(
                CatalogAPI.addLeagueTeam, league.id, body: AddLeagueTeamRequest(teamId: team.id), token: manager.accessToken)
            let admin = try await h.admin()
            let course = try await h.catalog.value(CatalogAPI.createCourse, body: CourseTests.course(), token: admin.accessToken)

            let client = CatalogClient(dependencies: h.stack.dependencies(of: .games))
            #expect(try await client.team(team.id)?.name == team.name)
            #expect(try await client.team(TeamID()) == nil)
            #expect(try await client.membership(of: manager.user.id, in: team.id)?.role == .manager)
            #expect(try await client.membership(of: player.user.id, in: team.id)?.role == .invited)
            #expect(try await client.membership(of: admin.user.id, in: team.id) == nil)
            #expect(try await client.members(of: team.id)?.map(\.userId) == [manager.user.id, player.user.id])
            #expect(try await client.league(league.id)?.teamCount == 1)
            #expect(try await client.teams(inLeague: league.id)?.map(\.id) == [team.id])
            #expect(try await client.course(course.id) == course)

            // Internal routes need the internal credential.
            #expect(try await h.catalog.withoutCredential.call(CatalogAPI.Internal.team, team.id).status == 401)
        }
    }

    @Test("A catalog that is down is a 503 for its callers")
    func catalogDown() async throws {
        try await CatalogHarness.with(directory: [:]) { h in
            var dependencies = h.stack.dependencies(of: .games)
            dependencies.directory = ServiceDirectory(urls: [.catalog: "http://127.0.0.1:1"])
            await #expect(throws: CommonError.self) { try await CatalogClient(dependencies: dependencies).team(TeamID()) }
        }
    }
}
