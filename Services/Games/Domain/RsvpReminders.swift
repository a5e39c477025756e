import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceClients
import ServiceHTTP
import ServiceStore

/// The organiser's "remind them" button: the players invited who have not answered are pushed a
/// reminder at once (notify, from `games.game.remindRequested`), once every `every` a game, so a
/// player is not nagged. The organiser may, and for a team game the team's manager.
struct RsvpReminders: Sendable {
    let games: Games
    let store: any RsvpReminderStore
    let every: TimeInterval

    var policy: RateLimitPolicy { RateLimitPolicy(name: "game-reminders", quota: 1, windowSeconds: Int(every)) }

    func remind(_ id: GameID, by user: UserID) async throws -> RemindResult {
        let seen = try await games.database.read { sql in try await games.visibleGame(id, to: user, on: sql) }
        if seen.organizerId != user {
            guard let team = seen.teamId, try await games.catalog.membership(of: user, in: team)?.role == .manager else {
                throw CommonError.forbidden("Only the game's organiser or its team's manager reminds its players.")
            }
        }
        return try await games.database.transaction { sql in
            let game = try await games.visibleGame(id, to: user, locked: true, on: sql)
            let now = games.now()
            try GameRules.requireOpen(game, now: now)
            if let asked = try await store.lastAsked(id, on: sql), now < asked.addingTimeInterval(every) {
                let wait = Int(asked.addingTimeInterval(every).timeIntervalSince(now).rounded(.up))
                throw CommonError.rateLimited(retryAfterSeconds: max(1, wait), policy: policy)
            }
            try await store.asked(id, at: now, on: sql)
            let waiting = try await games.unanswered(in: id, on: sql)
            if !waiting.isEmpty { try await games.publish(GameEvent.remindRequested, id, concerned: waiting, on: sql) }
            return RemindResult(reminded: waiting.count)
        }
    }
}
