import Contracts
import ServiceHTTP

/// What a viewer is shown of a team, the rule games and search apply to their places: the exact
/// place only when the team's privacy reveals it to them (a public team's to anyone, a protected or
/// private one's to its members) and, to a non-member, only when `placeUnlocked` (the `location`
/// gate is off or they hold it); and the distance from where they said they are, always.
enum TeamView {
    static func shown(_ team: Team, from position: Coordinates?, placeUnlocked: Bool) -> Team {
        var shown = team
        if let position, let location = team.location {
            shown.distanceMeters = Geodesy.distanceMeters(from: position, to: location.coordinates)
        }
        let member = team.membership?.isMember == true
        if !team.privacy.revealsExactLocation(toParticipant: member) || !(member || placeUnlocked) {
            shown.location = nil
        }
        return shown
    }
}
