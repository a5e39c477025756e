import Contracts

/// Internal: what `POST /internal/reindex` read from the owners' snapshots.
public struct ReindexResult: Codable, Sendable, Equatable {
    public var games: Int
    public var teams: Int
    public var courses: Int
    public var venues: Int
    public var players: Int

    public init(games: Int, teams: Int, courses: Int, venues: Int, players: Int) {
        self.games = games
        self.teams = teams
        self.courses = courses
        self.venues = venues
        self.players = players
    }
}
