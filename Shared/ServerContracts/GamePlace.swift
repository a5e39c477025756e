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
