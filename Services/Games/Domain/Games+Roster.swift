import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceClients
import ServiceFeatures
import ServiceHTTP
import ServiceStore

/// Roster use cases. Each runs under the game's lock, so two players racing for the last slot
/// are served one after the other and only one of them gets it.
extension Games {
    func join(_ id: GameID, user: UserID) async throws -> RosterPlace {
        try await database.transaction { sql in
            let game = try await visibleGame(id, to: user, locked: true, on: sql)
            try GameRules.requireOpen(game, now: now())
            // Joining on an invitation is the organiser's to offer; joining of one's own accord is gated.
            if game.myStatus == nil { try await gatekeeper.require(.join, of: user, on: sql) }
            let outcome = RosterRules.join(
                privacy: game.privacy, current: game.myStatus, subsNeeded: game.subsNeeded,
                hasFreeSlot: RosterRules.hasFreeSlot(capacity: game.capacity, going: game.goingCount))
            return try await apply(outcome, to: user, in: game, on: sql)
        }
    }

    /// A player's own answer: going, maybe or not going.
    func answer(_ id: GameID, user: UserID, status: RosterStatus) async throws -> RosterPlace {
        guard RosterStatus.answers.contains(status) else { throw CommonError.invalid("status", "must be going, maybe or notGoing") }
        return try await database.transaction { sql in
            let game = try await visibleGame(id, to: user, locked: true, on: sql)
            try GameRules.requireOpen(game, now: now())
            let outcome = RosterRules.answer(
                status, current: game.myStatus, hasFreeSlot: RosterRules.hasFreeSlot(capacity: game.capacity, going: game.goingCount))
            return try await apply(outcome, to: user, in: game, on: sql)
        }
    }

    /// The organiser answers a request to join: approve seats the player (or queues them), decline forgets it.
    func decide(_ id: GameID, request user: UserID, approve: Bool, by organizer: UserID) async throws -> RosterPlace {
        try await database.transaction { sql in
            let game = try await organizedGame(id, by: organizer, on: sql)
            try GameRules.requireOpen(game, now: now())
            guard let request = try await roster.placement(of: user, in: id, on: sql), request.status == .pending else {
                throw CommonError.notFound("No pending request from \(user) for this game.")
            }
            // A substitute's request to a private game is counted against the call once approved.
            let outcome: RosterRules.Outcome =
                approve
                ? .becomes(RosterRules.seat(in: game), substitute: request.substitute)
                : .leaves
            return try await apply(outcome, to: user, in: game, on: sql)
        }
    }

    /// The organiser invites users; someone who had asked to join is seated at once.
    func invite(_ userIDs: [UserID], to id: GameID, by organizer: UserID, requestID: String) async throws -> InviteResult {
        let unique = try await auth.inviteeIDs(userIDs, requestID: requestID)
        return try await database.transaction { sql in
            var game = try await organizedGame(id, by: organizer, on: sql)
            try GameRules.requireOpen(game, now: now())
            var invited: [UserID] = [], unchanged: [UserID] = []
            for user in unique {
                switch try await roster.placement(of: user, in: id, on: sql)?.status {
                case nil:
                    _ = try await apply(.becomes(.invited, substitute: false), to: user, in: game, on: sql)
                    invited.append(user)
                case .pending:
                    _ = try await apply(.becomes(RosterRules.seat(in: game), substitute: false), to: user, in: game, on: sql)
                    invited.append(user)
                default:
                    unchanged.append(user)
                }
                game = try await visibleGame(id, to: organizer, on: sql)
            }
            return InviteResult(invited: invited, unchanged: unchanged)
        }
    }

    /// The organiser asks for `needed` substitutes (0 clears the call).
    func requestSubstitutes(_ needed: Int, for id: GameID, by organizer: UserID) async throws -> Game {
        guard GameValidation.subsRange.contains(needed) else {
            throw CommonError.invalid(
                "needed", "must be from \(GameValidation.subsRange.lowerBound) to \(GameValidation.subsRange.upperBound)")
        }
        try await database.transaction { sql in
            var game = try await organizedGame(id, by: organizer, on: sql)
            try GameRules.requireOpen(game, now: now())
            guard game.subsNeeded != needed else { return }
            game.subsNeeded = needed
            try await games.update(game, on: sql)
            try await publishNeedsPlayers(game, on: sql)
        }
        return try await game(id, viewer: organizer, from: nil)
    }

    /// The roster with names. Pending requests are the organiser's business only.
    func roster(_ id: GameID, viewer: UserID, requestID: String) async throws -> [RosterEntry] {
        let (game, placements) = try await database.read { sql in
            let game = try await visibleGame(id, to: viewer, on: sql)
            // Who plays a private game is its players' business.
            guard game.privacy != .private || GameRules.isParticipant(game, viewer: viewer) else { throw CommonError.missing(id) }
            return (game, try await roster.placements(in: id, on: sql))
        }
        let shown = game.organizerId == viewer ? placements : placements.filter { $0.status != .pending }
        let profiles = try await auth.profiles(shown.map(\.userId), requestID: requestID)
        return shown.map {
            RosterEntry(
                userId: $0.userId, name: profiles[$0.userId]?.name ?? ShownWords.formerPlayer.localized, status: $0.status,
                position: $0.position,
                substitute: $0.substitute)
        }
    }

    // MARK: Applying a change

    /// Writes `outcome` for `user`, counts a substitute against the call, moves the waiting list
    /// up into freed slots, and publishes what changed.
    func apply(_ outcome: RosterRules.Outcome, to user: UserID, in game: Game, on sql: any SQLDatabase) async throws -> RosterPlace {
        let previous = try await roster.placement(of: user, in: game.id, on: sql)?.status
        var changed: (status: RosterStatus?, promoted: [UserID])? = nil
        switch outcome {
        case .refused(let reason):
            throw CommonError.forbidden(reason)
        case .unchanged:
            break
        case .leaves:
            try await roster.remove(user, from: game.id, on: sql)
            changed = (nil, try await promoteWaiting(in: game.id, on: sql))
        case .becomes(let status, let substitute):
            try await roster.set(status, substitute: substitute, of: user, in: game.id, on: sql)
            if substitute, status != .pending, game.subsNeeded > 0 {
                var game = game
                game.subsNeeded -= 1
                try await games.update(game, on: sql)
                try await publishNeedsPlayers(game, on: sql)
            }
            changed = (status, try await promoteWaiting(in: game.id, on: sql))
        }
        guard let after = try await games.game(game.id, viewer: nil, on: sql) else {
            throw CommonError.missing(game.id)
        }
        if let changed {
            try await publishRosterChange(
                of: user, status: changed.status, previous: previous, in: after, promoted: changed.promoted, on: sql)
        }
        let placement = try await roster.placement(of: user, in: game.id, on: sql)
        return RosterPlace(
            gameId: game.id, userId: user, status: placement?.status, position: placement?.position,
            substitute: placement?.substitute ?? false, goingCount: after.goingCount, subsNeeded: after.subsNeeded)
    }

    /// Seats the first in line in every free slot; returns who moved up.
    @discardableResult
    func promoteWaiting(in id: GameID, on sql: any SQLDatabase) async throws -> [UserID] {
        guard let game = try await games.game(id, viewer: nil, on: sql) else { return [] }
        let count = RosterRules.promotions(capacity: game.capacity, going: game.goingCount, waiting: game.waitlistCount)
        let promoted = try await roster.firstWaiting(count, in: id, on: sql)
        for user in promoted { try await roster.set(.going, substitute: false, of: user, in: id, on: sql) }
        return promoted
    }

    // MARK: Events

    /// `game` as the change left it, for its counts.
    func publishRosterChange(
        of user: UserID, status: RosterStatus?, previous: RosterStatus?, in game: Game, promoted: [UserID], on sql: any SQLDatabase
    ) async throws {
        try await outbox.append(
            GameEvent.rosterChanged, aggregateID: game.id.description,
            payload: GameEvent.RosterChanged(
                gameId: game.id, userId: user, status: status, previousStatus: previous, promoted: promoted, goingCount: game.goingCount,
                waitlistCount: game.waitlistCount, subsNeeded: game.subsNeeded),
            on: sql)
    }

    func publishNeedsPlayers(_ game: Game, on sql: any SQLDatabase) async throws {
        try await outbox.append(
            GameEvent.needsPlayersChanged, aggregateID: game.id.description,
            payload: GameEvent.NeedsPlayersChanged(gameId: game.id, subsNeeded: game.subsNeeded), on: sql)
    }
}
