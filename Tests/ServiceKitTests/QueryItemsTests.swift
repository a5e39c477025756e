import Contracts
import Foundation
import HummingbirdCore
import ServiceHTTP
import Testing

/// A client's query is written through the fields the server reads it with: what any client sends
/// passes the operation's rules and reads back as the value written.
@Suite("Typed queries")
struct QueryItemsTests {
    /// The query as the server sees it: the encoded text parsed as a request URI's query.
    static func parsed(_ query: QueryItems) -> (String) -> String? {
        let parameters = URI("/any?" + query.encoded).queryParameters
        return { parameters[Substring($0)].map(String.init) }
    }

    @Test("each field reads back on the server as the value the client wrote, and the operation's rules pass it")
    func roundTrip() throws {
        let when = Date(timeIntervalSince1970: 1_800_000_000)
        let query =
            Query.place(Coordinates(lat: 59.437, lng: -24.75)) + Query.radiusKm(12.5) + Query.sport(.discGolf) + SearchAPI.to(when)
            + SearchAPI.needsPlayers(true) + Query.limit(7) + Query.cursor("c2Vlbg")
        let raw = Self.parsed(query)
        #expect(Query.place.value(in: raw) == Coordinates(lat: 59.437, lng: -24.75))
        #expect(Query.radiusKm.value(in: raw) == 12.5)
        #expect(Query.sport.value(in: raw) == .some(.discGolf))
        #expect(SearchAPI.to.value(in: raw) == .some(when))
        #expect(SearchAPI.needsPlayers.value(in: raw) == .some(true))
        #expect(Query.limit.value(in: raw) == 7)
        #expect(Query.cursor.value(in: raw) == .some("c2Vlbg"))
        #expect(try QueryRulesTests.problems(query.encoded, of: SearchAPI.games.operation).isEmpty)
        #expect(try query.items(for: SearchAPI.games.operation).count == 8)
    }

    @Test("text a person typed is sent as typed: a plus, an ampersand, spaces and letters beyond ASCII")
    func textIsEscaped() throws {
        let typed = "Tõnu & Ülle + friends = 100%"
        let query = CatalogAPI.teamText(typed)
        #expect(query.encoded == "q=T%C3%B5nu%20%26%20%C3%9Clle%20%2B%20friends%20%3D%20100%25")
        #expect(CatalogAPI.teamText.value(in: Self.parsed(query)) == .some(typed))
    }

    @Test("a later value of the same field replaces the earlier one (a page's next cursor); an absent optional sends nothing")
    func laterWins() throws {
        let first = Query.mineScope(.mine) + Query.limit(3) + Query.cursor(nil)
        #expect(first.encoded == "scope=mine&limit=3")
        let next = first + Query.cursor("QUJD") + Query.cursor("REVG")
        #expect(next.encoded == "scope=mine&limit=3&cursor=REVG")
    }

    @Test("a field the operation does not list is refused before anything is sent, naming the operation and the field")
    func unlistedFieldRefused() throws {
        let query = Query.mineScope(.mine) + Query.sport(.soccer)
        #expect(throws: UnlistedQueryField(operation: "GET /v1/games", field: "sport")) {
            try query.items(for: GamesAPI.myGames.operation)
        }
        // A position is listed as one parameter though it is sent as two.
        #expect(try Query.position(Coordinates(lat: 1, lng: 2)).items(for: GamesAPI.game.operation).map(\.name) == ["lat", "lng"])
        #expect(throws: UnlistedQueryField(operation: "GET /v1/search/games", field: "position")) {
            try Query.position(Coordinates(lat: 1, lng: 2)).items(for: SearchAPI.games.operation)
        }
    }
}
