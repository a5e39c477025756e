public import Contracts

/// Events of rounds (`EventEnvelope.type`), for notify and search.
public enum RoundEvent {
    public static let started = EventType<RoundChanged>("games.round.started", owner: .games)
    public static let finished = EventType<RoundChanged>("games.round.finished", owner: .games)
    /// A registered player joined a round under way (`addedUserIds`).
    public static let playerAdded = EventType<RoundChanged>("games.round.playerAdded", owner: .games)

    /// `started`: the card at the start, and the registered players the starter added (to notify).
    /// `finished`: the final card.
    public struct RoundChanged: Codable, Equatable, Sendable {
        public var scorecard: Scorecard
        public var addedUserIds: [UserID]

        public init(scorecard: Scorecard, addedUserIds: [UserID] = []) {
            self.scorecard = scorecard
            self.addedUserIds = addedUserIds
        }
    }
}
