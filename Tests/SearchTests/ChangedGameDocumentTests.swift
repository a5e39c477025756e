import Contracts
import Foundation
import ServerContracts
import Testing

@testable import SearchService

/// A changed game's document is taken from its event's own JSON (`ChangedGame`) rather than by
/// decoding the game and encoding it again: the two must store the same document.
@Suite("Game documents from games' events")
struct ChangedGameDocumentTests {
    static let games = [SearchResultsJSONTests.everyField, SearchResultsJSONTests.fewestFieldsWithPlace]

    @Test("the event's game is stored as encoding the game stores it", arguments: games)
    func sameDocument(game: Game) throws {
        let changed = GameEvent.GameChanged(game: game, invited: [UserID()], going: [UserID(), UserID()], concerned: [UserID()])
        for type in [GameEvent.created, GameEvent.updated, GameEvent.cancelled] {
            let event = try type.event(changed, aggregateID: game.id.description, occurredAt: game.createdAt)
            let stored = try #require(try Indexer.change(for: event).document)
            #expect(stored == (try Indexer.document(for: game)))
            #expect(try HuddleJSON.decoder.decode(Game.self, from: stored.doc) == game)
            // What lets search keep the event's bytes: they are the game as a document is written.
            #expect(NearbyJSON.member("game", of: event.payload) == (try HuddleJSON.encoder.encode(game)))
        }
    }

    @Test("a game carrying a viewer's own fields is stored without them")
    func viewerFieldsLeftOut() throws {
        var game = SearchResultsJSONTests.everyField
        game.myStatus = .going
        game.distanceMeters = 120
        let event = try GameEvent.updated.event(
            GameEvent.GameChanged(game: game), aggregateID: game.id.description, occurredAt: game.createdAt)
        let stored = try #require(try Indexer.change(for: event).document)
        let kept = try HuddleJSON.decoder.decode(Game.self, from: stored.doc)
        #expect(kept.myStatus == nil && kept.distanceMeters == nil)
        #expect(stored == (try Indexer.document(for: game)))
    }

    @Test("a game without a place is not kept")
    func withoutPlace() throws {
        let game = SearchResultsJSONTests.fewestFields
        let event = try GameEvent.created.event(
            GameEvent.GameChanged(game: game), aggregateID: game.id.description, occurredAt: game.createdAt)
        guard case .ignored = try Indexer.change(for: event) else {
            Issue.record("a game without a place made a change")
            return
        }
    }

    @Test("a member's JSON is read as written, whatever its kind and the whitespace around it")
    func member() {
        let json = #"{"a" : {"b":"}\"{","c":[1,{"d":2}]} ,"e":[ "x" ],"f":3,"g":"h\\"}"#
        let read = { (name: String) in NearbyJSON.member(name, of: Data(json.utf8)).map { String(decoding: $0, as: UTF8.self) } }
        #expect(read("a") == #"{"b":"}\"{","c":[1,{"d":2}]}"#)
        #expect(read("e") == #"[ "x" ]"#)
        #expect(read("f") == "3")
        #expect(read("g") == #""h\\""#)
        #expect(read("b") == nil)
        #expect(NearbyJSON.member("a", of: Data(#"["a"]"#.utf8)) == nil)
    }
}

extension IndexChange {
    fileprivate var document: PlaceDocument? {
        guard case .set(let document) = self else { return nil }
        return document
    }
}
