import Contracts
import Foundation
import ServerContracts
import ServiceHTTP

/// Who may see a game and whether its roster is still open, decided from the game alone.
enum GameRules {
    /// A private game exists only for its organiser and the people on its roster, but while it asks for
    /// substitutes anyone may find it and ask to come in as one (`Game.shownToSubstitute`).
    static func canSee(_ game: Game, viewer: UserID) -> Bool {
        game.privacy != .private || game.organizerId == viewer || game.myStatus != nil || game.subsNeeded > 0
    }

    /// The organiser and everyone on the roster but a pending requester.
    static func isParticipant(_ game: Game, viewer: UserID) -> Bool {
        game.organizerId == viewer || game.myStatus?.isParticipant == true
    }

    /// Rosters change only on scheduled games that have not started.
    static func requireOpen(_ game: Game, now: Date) throws {
        if game.status == .cancelled { throw GamesError.cancelled }
        if game.startsAt <= now { throw GamesError.alreadyStarted }
    }
}

/// What a viewer is shown of a game: the exact location only when privacy allows it
/// (`Privacy.revealsExactLocation`, the rule search applies too) and, to someone who takes no part
/// in it, only when `placeUnlocked` (the `location` gate is off or they hold it); and always the
/// distance from where they said they are.
enum GameView {
    static func shown(_ game: Game, to viewer: UserID, from position: Coordinates?, placeUnlocked: Bool) -> Game {
        var shown = game
        if let position, let location = game.location {
            shown.distanceMeters = Geodesy.distanceMeters(from: position, to: location.coordinates)
        }
        let participant = GameRules.isParticipant(game, viewer: viewer)
        if game.privacy == .private, !participant { return shown.shownToSubstitute }
        if !game.privacy.revealsExactLocation(toParticipant: participant) || !(participant || placeUnlocked) {
            shown.hidePlace()
        }
        return shown
    }
}
