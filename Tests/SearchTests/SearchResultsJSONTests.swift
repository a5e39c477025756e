import Contracts
import Foundation
import ServerContracts
import Testing

@testable import SearchService

/// Search writes its game results from the stored documents (`NearbyJSON`): what it writes must be
/// what encoding the results writes, byte for byte.
@Suite("Search results written from stored documents")
struct SearchResultsJSONTests {
    /// Every optional field set, so that each of a game's keys meets `distanceMeters` in the sorting.
    static let everyField = {
        var game = Game(
            id: GameID(), kind: .league, status: .scheduled, teamId: TeamID(), teamName: "Kalev \"Blue\"", leagueId: LeagueID(),
            homeTeamId: TeamID(), homeTeamName: "Home {A}", awayTeamId: TeamID(), awayTeamName: "Away, B", organizerId: UserID(),
            startsAt: Date(timeIntervalSince1970: 1_800_000_000), timeZone: "Europe/Tallinn", sport: .football, privacy: .public,
            ageGroup: .adult, gender: .coed, skill: .intermediate, capacity: 14, goingCount: 9, waitlistCount: 2, subsNeeded: 1,
            location: Location(lat: 59.437, lng: 24.7536, address: "Kadrioru staadion, \\ Tallinn"),
            description: "Bring \"both\" kits: [dark] & {light}",
            myStatus: nil, createdAt: Date(timeIntervalSince1970: 1_799_000_000))
        game.venueId = VenueID()
        game.alreadyGoing = 3
        return game
    }()

    static let fewestFields = Game(
        id: GameID(), kind: .pickup, organizerId: UserID(), startsAt: Date(timeIntervalSince1970: 1_800_000_000), sport: .basketball,
        privacy: .protected, ageGroup: .any, gender: .any, skill: .any, createdAt: Date(timeIntervalSince1970: 1_799_000_000))

    static let fewestFieldsWithPlace = {
        var game = fewestFields
        game.location = Location(lat: 58.38, lng: 26.72)
        return game
    }()

    @Test("a game with its distance is written as encoding Nearby writes it", arguments: [everyField, fewestFields])
    func gameWithDistance(game: Game) throws {
        for meters in [0, 7, 49_999] {
            let written = try #require(NearbyJSON.withDistance(try HuddleJSON.encoder.encode(game), meters: meters))
            #expect(String(decoding: written, as: UTF8.self) == Self.encoded(Nearby(item: game, distanceMeters: meters)))
        }
    }

    @Test(
        "a game whose place is not shown is written as encoding it without its location and venue writes it",
        arguments: [everyField, fewestFields])
    func gameWithoutLocation(game: Game) throws {
        var hidden = game
        hidden.hidePlace()
        let written = try #require(NearbyJSON.withDistance(try HuddleJSON.encoder.encode(game), meters: 42, without: Game.placeKeys))
        #expect(String(decoding: written, as: UTF8.self) == Self.encoded(Nearby(item: hidden, distanceMeters: 42)))
    }

    @Test("a page of results is written as encoding Page writes it, its cursor escaped or null")
    func page() throws {
        let results = [Nearby(item: Self.everyField, distanceMeters: 12), Nearby(item: Self.fewestFields, distanceMeters: 3_400)]
        let items = try results.map { try HuddleJSON.encoder.encode($0) }
        for cursor in [nil, "20", "a/b\"c"] {
            let written = try NearbyJSON.page(of: items, nextCursor: cursor)
            #expect(String(decoding: written, as: UTF8.self) == Self.encoded(Page(items: results, nextCursor: cursor)))
        }
        #expect(String(decoding: try NearbyJSON.page(of: [], nextCursor: nil), as: UTF8.self) == #"{"items":[],"nextCursor":null}"#)
    }

    @Test("the key goes among the top-level keys only, after nested ones and strings that look like keys")
    func placement() {
        func written(_ json: String) -> String? {
            NearbyJSON.withDistance(Data(json.utf8), meters: 5).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(written("{}") == #"{"distanceMeters":5}"#)
        #expect(written(#"{"a":1}"#) == #"{"a":1,"distanceMeters":5}"#)
        #expect(written(#"{"z":1}"#) == #"{"distanceMeters":5,"z":1}"#)
        #expect(
            written(#"{"a":{"z":[{"e":1}],"b":"}"},"x":"\",\"e\":"}"#)
                == #"{"a":{"z":[{"e":1}],"b":"}"},"distanceMeters":5,"x":"\",\"e\":"}"#)
    }

    @Test("a member left out goes with its nested values and one comma, wherever it stands; one nested is kept")
    func leftOut() {
        func written(_ json: String) -> String? {
            NearbyJSON.withDistance(Data(json.utf8), meters: 5, without: ["location"]).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(written(#"{"location":{"lat":1,"lng":2}}"#) == #"{"distanceMeters":5}"#)
        #expect(written(#"{"a":1,"location":{"lat":1,"l":[2,{"x":"}"}]}}"#) == #"{"a":1,"distanceMeters":5}"#)
        #expect(written(#"{"a":1,"location":{"lat":1},"z":"location"}"#) == #"{"a":1,"distanceMeters":5,"z":"location"}"#)
        #expect(written(#"{"e":1,"location":null,"m":{"location":3}}"#) == #"{"distanceMeters":5,"e":1,"m":{"location":3}}"#)
        #expect(written(#"{"a":1}"#) == #"{"a":1,"distanceMeters":5}"#)
    }

    @Test("a document that is not one object, or already has the key, is left to the encoder")
    func refused() {
        for json in [#"[{"a":1}]"#, #"{"distanceMeters":3}"#, #""text""#, #"{"a":1"#, "", #"{"a\"b":1}"#, "{1:2}", #"{"a":1,2}"#] {
            #expect(NearbyJSON.withDistance(Data(json.utf8), meters: 5) == nil, "\(json)")
        }
    }

    static func encoded(_ value: some Encodable) -> String {
        String(decoding: (try? HuddleJSON.encoder.encode(value)) ?? Data(), as: UTF8.self)
    }
}
