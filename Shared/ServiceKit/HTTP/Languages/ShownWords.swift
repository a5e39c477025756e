import Contracts

/// The words the server itself writes into answers for someone or something it cannot name, kept
/// in English where they are stored and shown in the request's language (`RequestLanguage`), from the
/// problems' catalogue, like any sentence a module raises.
public enum ShownWords {
    /// A deleted account, wherever its name stood (rosters, members, messages, scorecards).
    public static let formerPlayer: ProblemText = "Former player"
    /// An account without a name, or one no module could name.
    public static let player: ProblemText = "Player"
    /// The global chat room.
    public static let everyone: ProblemText = "Everyone"

    /// `stored` in the request's language when it is one of these words as stored, else as it is.
    public static func shown(_ stored: String) -> String {
        for word in [formerPlayer, player, everyone] where stored == word.english { return word.localized }
        return stored
    }
}
