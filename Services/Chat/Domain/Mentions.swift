/// `@Name` in a message: a player is named when `@` is followed by their whole display name, as an
/// app's mention picker writes it ("@Nina Tamm, are you in?"), and the name does not run on into a
/// longer word ("@Ninasomething" names no Nina).
enum Mentions {
    /// Names are at most this many words: how far after an `@` to look.
    static let longestName = 5

    /// Every text an `@` in `text` could be naming: the one to `longestName` words after it,
    /// without the punctuation that may close a sentence after the name.
    static func candidates(in text: String) -> Set<String> {
        var found: Set<String> = []
        var rest = Substring(text)
        while let at = rest.firstIndex(of: "@") {
            rest = rest[rest.index(after: at)...]
            let words = rest.split(separator: " ", maxSplits: longestName, omittingEmptySubsequences: false).prefix(longestName)
            var name = ""
            for word in words {
                guard !word.isEmpty else { break }
                name = name.isEmpty ? String(word) : "\(name) \(word)"
                found.insert(name)
                let trimmed = String(name.reversed().drop { closing.contains($0) }.reversed())
                if !trimmed.isEmpty { found.insert(trimmed) }
            }
        }
        return found
    }

    /// Which of `names` the text names.
    static func named<ID: Hashable>(in text: String, among names: [ID: String]) -> Set<ID> {
        guard text.contains("@") else { return [] }
        let candidates = candidates(in: text)
        return Set(names.filter { !$0.value.isEmpty && candidates.contains($0.value) }.keys)
    }

    private static let closing: Set<Character> = [",", ".", "!", "?", ":", ";", ")", "'", "\u{2019}"]
}
