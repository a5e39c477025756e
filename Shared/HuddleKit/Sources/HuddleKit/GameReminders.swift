public import Contracts

extension HuddleClient {
    /// The organiser's "remind them" button: the players invited who have not answered get a push at
    /// once. Once every six hours a game (`RATE_LIMITED` with `retryAfter` sooner).
    @discardableResult
    public func remind(_ game: GameID) async throws -> RemindResult {
        try await send(GamesAPI.remind, game)
    }
}

extension HuddleClient {
    /// Answers a game from a push, as a notification action does on the lock screen: the push's
    /// `gameId` and `rsvpToken` (from `userInfo`) stand for the player, so no session is needed (the
    /// app may be asleep, its session expired). `INVALID_TOKEN` once the game has started.
    public func answer(_ game: GameID, rsvpToken: String, status: RosterStatus) async throws {
        let _: NoContent = try await send(GamesAPI.rsvp, game, body: RSVPAnswer(token: rsvpToken, status: status))
    }
}
