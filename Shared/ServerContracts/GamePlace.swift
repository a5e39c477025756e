public import Contracts

extension Game {
    /// The members that say where a game is played: a viewer who may not see its place gets neither
    /// (the venue's place is the game's).
    public static let placeKeys = ["location", "venueId"]

    /// The game without where it is played, for a viewer who may not see its place.
    public mutating func hidePlace() {
        location = nil
        venueId = nil
    }
}

extension Game {
    /// What a player who takes no part in a private game asking for substitutes is shown of it, in search
    /// and on its page until its organiser approves them: its sport, time, attributes and the
    /// substitutes wanted (with the distance and their own status), nothing of who plays or where.
    /// Its counts read 0.
    public var shownToSubstitute: Game {
        var shown = Game(
            id: id, kind: kind, status: status, organizerId: organizerId, startsAt: startsAt, timeZone: timeZone, sport: sport,
            privacy: privacy, ageGroup: ageGroup, gender: gender, skill: skill, subsNeeded: subsNeeded, distanceMeters: distanceMeters,
            myStatus: myStatus, createdAt: createdAt)
        shown.hidden = hidden
        return shown
    }
}
