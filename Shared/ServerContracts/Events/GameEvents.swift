public import Contracts

/// Events games publishes (`EventEnvelope.type`) and their payloads, for search, notify and chat.
/// Like catalog's, each carries the whole current state of what changed.
public enum GameEvent {
    public static let created = EventType<GameChanged>("games.game.created", owner: .games)
    public static let updated = EventType<GameChanged>("games.game.updated", owner: .games)
    public static let cancelled = EventType<GameChanged>("games.game.cancelled", owner: .games)
    /// The organiser asked to remind the players who have not answered (`concerned`: those invited).
    public static let remindRequested = EventType<GameChanged>("games.game.remindRequested", owner: .games)
    public static let rosterChanged = EventType<RosterChanged>("games.roster.changed", owner: .games)
    public static let needsPlayersChanged = EventType<NeedsPlayersChanged>("games.game.needsPlayersChanged", owner: .games)

    /// `created`, `updated`, `cancelled`: the game with its exact location and counts, without a
    /// viewer's `myStatus` or distance. `invited` lists the team members a new game invited, so
    /// they can be told, and `going` those it seats (a pickup game's organiser), so they can be
    /// reminded.
    public struct GameChanged: Codable, Equatable, Sendable {
        public var game: Game
        public var invited: [UserID]
        public var going: [UserID]
        /// With `updated` and `cancelled`: everyone going, maybe, invited, pending or waitlisted, who
        /// are told when the game moves or is cancelled.
        public var concerned: [UserID]
        /// The game of the same series whose push tells of this change too (a series planned, moved or
        /// cancelled at once): this one pushes nothing of its own.
        public var toldWith: GameID?

        public init(game: Game, invited: [UserID] = [], going: [UserID] = [], concerned: [UserID] = [], toldWith: GameID? = nil) {
            self.game = game
            self.toldWith = toldWith
            self.invited = invited
            self.going = going
            self.concerned = concerned
        }

        private enum CodingKeys: String, CodingKey { case game, invited, going, concerned, toldWith }

        // `going` is new: an event written before it decodes with nobody seated.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            game = try container.decode(Game.self, forKey: .game)
            invited = try container.decodeIfPresent([UserID].self, forKey: .invited) ?? []
            going = try container.decodeIfPresent([UserID].self, forKey: .going) ?? []
            concerned = try container.decodeIfPresent([UserID].self, forKey: .concerned) ?? []
            toldWith = try container.decodeIfPresent(GameID.self, forKey: .toldWith)
        }
    }

    /// `status` is nil when the user left the roster, `previousStatus` nil when they were not on it
    /// (so pending → going is an approved request). `promoted` lists waiting players who took a
    /// freed slot in the same change, so they can be told.
    public struct RosterChanged: Codable, Equatable, Sendable {
        public var gameId: GameID
        public var userId: UserID
        public var status: RosterStatus?
        public var previousStatus: RosterStatus?
        public var promoted: [UserID]
        public var goingCount: Int
        public var waitlistCount: Int
        public var subsNeeded: Int

        public init(
            gameId: GameID, userId: UserID, status: RosterStatus?, previousStatus: RosterStatus? = nil, promoted: [UserID] = [],
            goingCount: Int, waitlistCount: Int, subsNeeded: Int
        ) {
            self.gameId = gameId
            self.userId = userId
            self.status = status
            self.previousStatus = previousStatus
            self.promoted = promoted
            self.goingCount = goingCount
            self.waitlistCount = waitlistCount
            self.subsNeeded = subsNeeded
        }
    }

    public struct NeedsPlayersChanged: Codable, Equatable, Sendable {
        public var gameId: GameID
        public var subsNeeded: Int
        public var needsPlayers: Bool { subsNeeded > 0 }

        public init(gameId: GameID, subsNeeded: Int) {
            self.gameId = gameId
            self.subsNeeded = subsNeeded
        }

        enum CodingKeys: String, CodingKey { case gameId, subsNeeded, needsPlayers }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            gameId = try container.decode(GameID.self, forKey: .gameId)
            subsNeeded = try container.decode(Int.self, forKey: .subsNeeded)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(gameId, forKey: .gameId)
            try container.encode(subsNeeded, forKey: .subsNeeded)
            try container.encode(needsPlayers, forKey: .needsPlayers)
        }
    }
}
