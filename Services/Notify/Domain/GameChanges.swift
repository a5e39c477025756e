import Contracts
import Foundation
import ServerContracts
import ServiceHTTP

/// What a cancelled or moved game tells the players it concerns (going, maybe, invited, pending,
/// waitlisted; not its organiser, who made the change). Pure: the game before and after in, the
/// notification out. A move is a new start, or a place more than `samePlace` metres away.
enum GameChanges {
    static let samePlace = 25.0

    static func planned(_ changed: GameEvent.GameChanged, before: KnownGame?, cancelled: Bool) -> Planned? {
        let game = changed.game, zone = NotificationText.zone(game.timeZone)
        let recipients = changed.concerned.filter { $0 != game.organizerId }
        guard !recipients.isEmpty else { return nil }
        if cancelled {
            return Planned(
                recipients: recipients, category: .gameCancelled,
                text: NotificationText.gameCancelled(game.displayName, startsAt: game.startsAt, timeZone: zone),
                data: NotificationData(gameId: game.id, teamId: game.teamId), urgent: true)
        }
        guard let before else { return nil }
        let retimed = before.startsAt != game.startsAt
        let relocated = placeMoved(from: before.location, to: game.location)
        guard retimed || relocated else { return nil }
        return Planned(
            recipients: recipients, category: .gameChanged,
            text: NotificationText.gameChanged(
                game.displayName, from: retimed ? before.startsAt : nil, to: game.startsAt, place: relocated ? game.location : nil,
                timeZone: zone),
            data: NotificationData(
                gameId: game.id, teamId: game.teamId, startsAt: retimed ? game.startsAt : nil,
                previousStartsAt: retimed ? before.startsAt : nil, location: relocated ? game.location : nil,
                previousLocation: relocated ? before.location : nil),
            urgent: true)
    }

    /// Whether the place changed by more than `samePlace` metres (a place given or taken away counts).
    static func placeMoved(from old: Location?, to new: Location?) -> Bool {
        switch (old, new) {
        case (nil, nil): false
        case (let old?, let new?): Geodesy.distance(from: old.coordinates, to: new.coordinates) > samePlace
        default: true
        }
    }
}
