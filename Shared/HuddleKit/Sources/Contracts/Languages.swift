import Foundation

/// The languages Huddle writes in: pushes, the inbox, mails and problems' title and detail. Field
/// names, codes and enum values never change with the language.
public enum Language: String, Codable, Sendable, CaseIterable {
    case en, et, it

    /// The language of a BCP 47 tag (`et`, `it-IT`, `en-GB`); English for any other.
    public init(tag: String?) {
        let primary = tag?.split(separator: "-").first.map { $0.lowercased() } ?? ""
        self = Language(rawValue: primary) ?? .en
    }

    /// The first language of an `Accept-Language` header Huddle writes in, by the weights the client
    /// gave (`it-IT,it;q=0.9,en;q=0.8`); nil when it names none of them.
    public init?(acceptLanguage header: String?) {
        guard let header else { return nil }
        let ranked = header.split(separator: ",").enumerated().compactMap { index, part -> (tag: String, weight: Double, order: Int)? in
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first, !tag.isEmpty else { return nil }
            let weight = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (tag, weight, index)
        }
        let best = ranked.filter { $0.weight > 0 }.sorted { ($0.weight, -$0.order) > ($1.weight, -$1.order) }
            .first { Language(rawValue: $0.tag.split(separator: "-").first.map { $0.lowercased() } ?? "") != nil }
        guard let best else { return nil }
        self.init(tag: best.tag)
    }
}
