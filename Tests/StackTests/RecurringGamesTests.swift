import Contracts
import Foundation
import HuddleKit
import ServiceKitTesting
import Testing

/// A manager plans a season's weekly training once, moves it from one week on, and cancels the end of it.
@Suite("Recurring games")
struct RecurringGamesTests {
    @Test(
        "a weekly series is planned in one request and told in one push; scope=following moves and cancels the later games, scope=this one",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func weeklyTraining(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let manager = try await StackTests.player(gateway, "Mia Manager"), ana = try await StackTests.player(gateway, "Ana Player")
            let team = try await manager.send(
                CatalogAPI.createTeam,
                body: CreateTeamRequest(
                    name: "Tuesday Spikers", sport: .volleyball, privacy: .public, location: Location(lat: 59.43, lng: 24.75),
                    ageGroup: .adult, gender: .coed, skill: .any))
            _ = try await ana.send(CatalogAPI.joinTeam, team.id)
            let tallinn = TimeZone(identifier: "Europe/Tallinn")!
            let first = Date().addingTimeInterval(7 * 86_400).wholeSeconds
            func training(_ rule: GameRepeat) -> CreateGameRequest {
                CreateGameRequest(kind: .team, teamId: team.id, startsAt: first, timeZone: tallinn.identifier, repeat: rule)
            }
            for (rule, field) in [
                (GameRepeat(count: 53), "repeat.count"), (GameRepeat(count: 2, until: first), "repeat"),
                (GameRepeat(until: first.addingTimeInterval(-60)), "repeat.until"),
            ] {
                do {
                    _ = try await manager.send(GamesAPI.createGame, body: training(rule))
                    Issue.record("\(rule) was taken")
                } catch let error as HuddleError {
                    #expect(error.status == 422 && error.problem?.errors?.map(\.field) == [field])
                }
            }
            let opening = try await manager.send(GamesAPI.createGame, body: training(GameRepeat(count: 4)))
            #expect(opening.seriesId == opening.id && opening.startsAt == first)

            // Ana is invited to all four, at the same local time each week, and told once.
            func series() async throws -> [Game] {
                try await ana.send(GamesAPI.myGames, query: Query.mineScope(.mine) + GamesAPI.gamesWhen(.upcoming) + Query.limit(100)).items
                    .filter { $0.seriesId == opening.id }
            }
            let planned = try await series()
            #expect(planned.map(\.myStatus) == Array(repeating: .invited, count: 4))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = tallinn
            let clock = { (date: Date) in calendar.dateComponents([.weekday, .hour, .minute], from: date) }
            #expect(planned.allSatisfy { clock($0.startsAt) == clock(first) })
            #expect(
                zip(planned, planned.dropFirst()).allSatisfy {
                    calendar.dateComponents([.day], from: $0.startsAt, to: $1.startsAt).day == 7
                })
            let single = try await manager.send(
                GamesAPI.createGame, body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: first.addingTimeInterval(3600)))
            func newGamePushes() async throws -> [GameID?] {
                try await ana.send(NotifyAPI.inbox).items.filter { $0.category == .newGame }.map(\.data.gameId)
            }
            #expect(try await eventually { try await newGamePushes().contains(single.id) })
            #expect(try await newGamePushes().filter { $0 != single.id } == [opening.id])

            // From the second week on: Wednesdays, half an hour earlier, twelve players.
            let second = planned[1]
            let moved = try await manager.send(
                GamesAPI.updateGame, second.id, query: GamesAPI.seriesScope(.following),
                body: UpdateGameRequest(startsAt: second.startsAt.addingTimeInterval(86_400 - 1800), capacity: 12))
            #expect(moved.capacity == 12)
            let afterMove = try await series()
            #expect(afterMove[0] == planned[0])
            let wednesday = clock(moved.startsAt)
            #expect(
                afterMove.dropFirst().allSatisfy { clock($0.startsAt) == wednesday && $0.capacity == 12 },
                "\(afterMove.map { ($0.startsAt, $0.capacity) })")
            // Ana cannot change the organiser's series.
            do {
                _ = try await ana.send(
                    GamesAPI.updateGame, planned[2].id, query: GamesAPI.seriesScope(.following), body: UpdateGameRequest(capacity: 2))
                Issue.record("a player changed the series")
            } catch let error as HuddleError {
                #expect(error.status == 403)
            }
            // One week away, and the last two weeks off.
            _ = try await manager.send(
                GamesAPI.updateGame, planned[2].id, query: GamesAPI.seriesScope(.this), body: UpdateGameRequest(description: "Away"))
            _ = try await manager.send(GamesAPI.cancelGame, planned[2].id, query: GamesAPI.seriesScope(.following))
            let final = try await series()
            #expect(final.map(\.description) == [nil, nil, "Away", nil])
            #expect(final.map(\.status) == [.scheduled, .scheduled, .cancelled, .cancelled])
        }
    }
}
