import Contracts
import Foundation
import ServerContracts

/// What search reads of a game's created, updated or cancelled event: the fields its filter columns
/// hold, decoded, and the game's own JSON, stored as its document as games wrote it.
///
/// Decoding every field of the event's game and encoding the game again for its document was 41 % of
/// search's CPU while applying a backlog of games' events (perf, 100,000 events on PostgreSQL: 21 %
/// decoding, 20 % encoding) — most of what holds back how fast games' partitions can deliver to it.
/// A game in an event is written by `HuddleJSON.encoder` as a stored document is, so its bytes are
/// the document, unless it carries a viewer's own fields, which a document leaves out.
struct ChangedGame: Decodable, Sendable {
    /// The game's fields a document's columns are made of.
    struct Columns: Decodable, Sendable {
        var id: GameID
        var status: GameStatus
        var startsAt: Date
        var sport: Sport
        var privacy: Privacy
        var ageGroup: AgeGroup
        var gender: Gender
        var skill: Skill
        var capacity: Int?
        var goingCount: Int
        var subsNeeded: Int
        var location: Location?
        var distanceMeters: Int?
        var myStatus: RosterStatus?
    }

    var game: Columns

    /// The game's document: from the event's own JSON of the game where it is one, else by encoding
    /// the game decoded in full. Nil for a game without a place, which search does not keep.
    static func document(from event: EventEnvelope, columns: Columns) throws -> PlaceDocument? {
        guard columns.myStatus == nil, columns.distanceMeters == nil, let json = NearbyJSON.member("game", of: event.payload) else {
            return try Indexer.document(for: HuddleJSON.decoder.decode(GameEvent.GameChanged.self, from: event.payload).game)
        }
        return Indexer.document(for: columns, json: json)
    }
}

extension ChangedGame.Columns {
    init(_ game: Game) {
        self.init(
            id: game.id, status: game.status, startsAt: game.startsAt, sport: game.sport, privacy: game.privacy, ageGroup: game.ageGroup,
            gender: game.gender, skill: game.skill, capacity: game.capacity, goingCount: game.goingCount, subsNeeded: game.subsNeeded,
            location: game.location, distanceMeters: game.distanceMeters, myStatus: game.myStatus)
    }
}
