import Foundation

/// How well a name answers a search: a prefix of the name (or of one of its words) first, then
/// the share of trigrams the two have in common, so "Brnuo" still finds "Bruno".
enum NameMatch {
    static func key(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func trigrams(_ key: String) -> Set<String> {
        let characters = Array(key)
        guard characters.count >= 3 else { return [] }
        return Set((0...(characters.count - 3)).map { String(characters[$0..<$0 + 3]) })
    }

    /// 0 when nothing matches; above 1 for prefixes.
    static func score(name: String, query: String) -> Double {
        let name = key(name), query = key(query)
        let prefix = name.hasPrefix(query) || name.split(separator: " ").contains { $0.hasPrefix(query) }
        let ours = trigrams(name), theirs = trigrams(query)
        let shared = theirs.isEmpty ? 0 : Double(ours.intersection(theirs).count) / Double(theirs.count)
        return (prefix ? 1 : 0) + shared
    }

    /// Matches worth showing: a prefix, or at least a third of the query's trigrams.
    static let threshold = 0.34

    static func likePrefix(_ key: String) -> String {
        key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_") + "%"
    }
}
