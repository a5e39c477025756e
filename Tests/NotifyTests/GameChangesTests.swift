import Contracts
import Foundation
import ServerContracts
import Testing

@testable import NotifyService

/// What a cancelled or moved game tells its players, on its own.
struct GameChangesTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    let organizer = UserID(), ana = UserID(), ben = UserID()
    let kadriorg = Location(lat: 59.4380, lng: 24.7920, address: "Kadriorg")

    func game(startsAt: Date, location: Location?) -> Game {
        Game(
            id: GameID(), kind: .pickup, organizerId: organizer, startsAt: startsAt, timeZone: "Europe/Tallinn", sport: .cricket,
            privacy: .public, ageGroup: .adult, gender: .coed, skill: .any, location: location, createdAt: start)
    }

    func before(_ game: Game, startsAt: Date? = nil, location: Location?? = nil) -> KnownGame {
        KnownGame(
            name: game.displayName, organizer: organizer, startsAt: startsAt ?? game.startsAt, timeZone: game.timeZone,
            location: location ?? game.location)
    }

    @Test func aCancelledGameTellsEveryoneConcernedButItsOrganiser() throws {
        let cancelled = game(startsAt: start, location: kadriorg)
        let planned = try #require(
            GameChanges.planned(
                GameEvent.GameChanged(game: cancelled, concerned: [organizer, ana, ben]), before: before(cancelled), cancelled: true))
        #expect(planned.recipients == [ana, ben] && planned.category == .gameCancelled && planned.text.title.hasPrefix("Cancelled: "))
        #expect(GameChanges.planned(GameEvent.GameChanged(game: cancelled, concerned: [organizer]), before: nil, cancelled: true) == nil)
    }

    @Test func aNewStartIsToldWithTheOldAndTheNewInTheGamesTimeZone() throws {
        let moved = game(startsAt: start.addingTimeInterval(86_400), location: kadriorg)
        let planned = try #require(
            GameChanges.planned(
                GameEvent.GameChanged(game: moved, concerned: [ana]), before: before(moved, startsAt: start), cancelled: false))
        #expect(planned.category == .gameChanged)
        #expect(planned.data.startsAt == moved.startsAt && planned.data.previousStartsAt == start && planned.data.location == nil)
        // 1.8e9 s is 15 January 2027, 10:00 in Tallinn (UTC+2).
        #expect(planned.text.body == "Moved from Fri 15 Jan at 10:00 to Sat 16 Jan at 10:00.", "\(planned.text.body)")
    }

    @Test func aPlaceMovesWhenItIsMoreThanAFewStepsAway() throws {
        let there = game(startsAt: start, location: Location(lat: 59.4380, lng: 24.7960, address: "Kadriorg stadium"))
        let planned = try #require(
            GameChanges.planned(
                GameEvent.GameChanged(game: there, concerned: [ana]), before: before(there, location: .some(kadriorg)), cancelled: false))
        #expect(planned.data.location == there.location && planned.data.previousLocation == kadriorg)
        #expect(planned.text.body == "Now at Kadriorg stadium.")
        let steps = game(startsAt: start, location: Location(lat: 59.4381, lng: 24.7920, address: "Kadriorg"))
        #expect(
            GameChanges.planned(
                GameEvent.GameChanged(game: steps, concerned: [ana]), before: before(steps, location: .some(kadriorg)), cancelled: false)
                == nil)
        // A game notify has not seen before tells nobody of a move.
        #expect(GameChanges.planned(GameEvent.GameChanged(game: steps, concerned: [ana]), before: nil, cancelled: false) == nil)
    }
}
