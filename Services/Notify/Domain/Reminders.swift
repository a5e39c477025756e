import Contracts
import Foundation
import SQLKit
import ServerContracts

/// Game reminders: each player going to (or maybe at) a game is reminded on game day in the
/// morning and shortly before kickoff; one invited who has not answered is asked two days before.
/// A game that moves moves its reminders; a cancelled game, or a player who leaves, cancels theirs;
/// an answer turns the ask into the going player's reminders.
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
        _ game: Game, going: [UserID], invited: [UserID], created: Bool, cancelled: Bool, changedAt: Date, on sql: any SQLDatabase
    ) async throws {
        guard !cancelled else {
            try await store.cancel(game.id, user: nil, on: sql)
            return
        }
        var players = created ? [:] : try await store.players(of: game.id, on: sql)
        if created {
            for player in invited where player != game.organizerId { players[player] = false }
            for player in going { players[player] = true }
        }
        for (player, answered) in players.sorted(by: { $0.key.description < $1.key.description }) {
            try await store.schedule(game.id, player, due: due(game.startsAt, game.timeZone, changedAt, answered: answered), on: sql)
        }
    }

    func rosterChanged(_ change: GameEvent.RosterChanged, changedAt: Date, on sql: any SQLDatabase) async throws {
        guard let game = try await directory.game(change.gameId, on: sql) else { return }
        let due = due(game.startsAt, game.timeZone, changedAt)
        if let status = change.status, Self.reminded.contains(status) {
            try await store.schedule(change.gameId, change.userId, due: due, on: sql)
        } else if change.status == .invited {
            try await store.schedule(
                change.gameId, change.userId, due: self.due(game.startsAt, game.timeZone, changedAt, answered: false), on: sql)
        } else {
            try await store.cancel(change.gameId, user: change.userId, on: sql)
        }
        for promoted in change.promoted where promoted != change.userId {
            try await store.schedule(change.gameId, promoted, due: due, on: sql)
        }
    }

    private func due(_ kickoff: Date, _ zone: String?, _ changedAt: Date, answered: Bool = true) -> [ReminderSchedule.Kind: Date] {
        schedule.dueTimes(kickoff: kickoff, timeZone: NotificationText.zone(zone), changedAt: changedAt, now: now(), answered: answered)
    }
}
