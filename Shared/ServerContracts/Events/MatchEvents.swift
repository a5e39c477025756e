public import Contracts

/// Events games publishes about professional matches (`EventEnvelope.type`), for betting and chat.
/// The payload is the whole match at the version that caused it (`MatchEvent.MatchChanged`).
public enum MatchEvent {
    /// First seen, or kickoff, status or score changed.
    public static let updated = EventType<MatchChanged>("games.match.updated", owner: .games)
    /// Reached a status with a result to settle on (FT, AET, PEN) or none to come (CANC, ABD,
    /// AWD, WO, and PST: a postponed match is replayed as a new kickoff, and bets on it are void).
    public static let finished = EventType<MatchChanged>("games.match.finished", owner: .games)

    public struct MatchChanged: Codable, Equatable, Sendable {
        public var match: Match
        /// The provider's fixture id (API-Football), for services that ask the provider about the
        /// match themselves (betting's odds).
        public var providerFixtureId: Int
        public init(match: Match, providerFixtureId: Int) {
            self.match = match
            self.providerFixtureId = providerFixtureId
        }
    }
}
