import Contracts
import Foundation
import SQLKit
import ServerContracts

/// Game reminders: each player going to (or maybe at) a game is reminded on game day in the
/// morning and shortly before kickoff. A game that moves moves its reminders; a cancelled game, or
/// a player who leaves, cancels theirs.
struct Reminders: Sendable {
    let store: any ReminderStore
    let directory: any DirectoryStore
    let schedule: ReminderSchedule
    let now: @Sendable () -> Date

    /// Roster statuses that are reminded.
    static let reminded: Set<RosterStatus> = [.going, .maybe]

    /// The game as it was at `changedAt`: a new game reminds those it seats; a changed one moves its
    /// players' reminders; a cancelled one cancels them all.
    func gameChanged(
        _ game: Game, going: [UserID], created: Bool, cancelled: Bool, changedAt: Date, on sql: any SQLDatabase
    ) async throws {
        guard !cancelled else {
            try await store.cancel(game.id, user: nil, on: sql)
            return
        }
        let players = created ? going : try await store.players(of: game.id, on: sql)
        for player in players.sorted(by: { $0.description < $1.description }) {
            try await store.schedule(game.id, player, due: due(game.startsAt, game.timeZone, changedAt), on: sql)
        }
    }

    func rosterChanged(_ change: GameEvent.RosterChanged, changedAt: Date, on sql: any SQLDatabase) async throws {
        guard let game = try await directory.game(change.gameId, on: sql) else { return }
        let due = due(game.startsAt, game.timeZone, changedAt)
        if let status = change.status, Self.reminded.contains(status) {
            try await store.schedule(change.gameId, change.userId, due: due, on: sql)
        } else {
            try await store.cancel(change.gameId, user: change.userId, on: sql)
        }
        for promoted in change.promoted where promoted != change.userId {
            try await store.schedule(change.gameId, promoted, due: due, on: sql)
        }
    }

    private func due(_ kickoff: Date, _ zone: String?, _ changedAt: Date) -> [ReminderSchedule.Kind: Date] {
        schedule.dueTimes(kickoff: kickoff, timeZone: NotificationText.zone(zone), changedAt: changedAt, now: now())
    }
}
