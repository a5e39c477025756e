public import Contracts

extension HuddleClient {
    /// The organiser's "remind them" button: the players invited who have not answered get a push at
    /// once. Once every six hours a game (`RATE_LIMITED` with `retryAfter` sooner).
    @discardableResult
    public func remind(_ game: GameID) async throws -> RemindResult {
        try await send(GamesAPI.remind, game)
    }
}
