import Foundation

/// Made-up squads and match statistics for the stand-in's fixtures, the same for a team every time
/// (derived from its name), so lineups and statistics look real without a data file.
enum FootballSquads {
    struct Player: Sendable, Equatable {
        let name: String
        let number: Int
        let position: String
    }

    struct Squad: Sendable, Equatable {
        let formation: String
        let startXI: [Player]
        let substitutes: [Player]
        let coach: String
    }

    static let surnames = [
        "Alder", "Brook", "Castell", "Dunmore", "Ellery", "Fairlie", "Garrow", "Halloran", "Ingram", "Jessup", "Kerrigan", "Lomas",
        "Marlow", "Norcott", "Oakley", "Pennant", "Quarry", "Rendell", "Sallis", "Tennant", "Upton", "Varley", "Whitlock", "Yardley",
        "Ashdown", "Bexley", "Corwen", "Dalby", "Everson", "Fenwick", "Gilchrist", "Harker", "Ilford", "Jarrow", "Kinloch", "Lindqvist",
    ]
    static let initials = Array("ABCDEFGHJKLMNPRSTW").map(String.init)

    static func squad(of team: String) -> Squad {
        var random = SplitMix64(seed: UInt64(FootballFixture.teamID(team)))
        let formations = [("4-3-3", [4, 3, 3]), ("4-4-2", [4, 4, 2]), ("3-5-2", [3, 5, 2]), ("4-2-3-1", [4, 5, 1])]
        let (formation, lines) = formations[random.next(below: formations.count)]
        let positions = ["G"] + (0..<lines[0]).map { _ in "D" } + (0..<lines[1]).map { _ in "M" } + (0..<lines[2]).map { _ in "F" }
        var names = surnames.shuffled(using: &random)
        func player(_ number: Int, _ position: String) -> Player {
            Player(name: "\(initials[random.next(below: initials.count)]). \(names.removeFirst())", number: number, position: position)
        }
        let starters = positions.enumerated().map { player($0.offset + 1, $0.element) }
        let substitutes = ["G", "D", "D", "M", "M", "F", "F"].enumerated().map { player($0.offset + 12, $0.element) }
        return Squad(
            formation: formation, startXI: starters, substitutes: substitutes,
            coach: "\(initials[random.next(below: initials.count)]). \(names.removeFirst())")
    }
}

/// A seeded generator (SplitMix64): the standard library's generator cannot be seeded, and the
/// stand-in's matchday (and a test's workload) must be the same for the same seed on every machine.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

extension FootballFixture {
    /// The provider's statistics lines, from what has happened so far: counts follow the events and
    /// the minute, possession drifts with the fixture id. Nil before kickoff.
    var statistics: [(type: String, home: String, away: String)]? {
        guard let elapsed, elapsed > 0 else { return nil }
        func count(_ side: Side, _ type: String, _ details: Set<String>) -> Int {
            events.filter { $0.side == side && $0.type == type && details.contains($0.detail) }.count
        }
        let possession = 40 + (id + elapsed / 10) % 21
        let shots = (home: goals.home + elapsed / 12 + id % 3, away: goals.away + elapsed / 15 + (id / 3) % 3)
        let cards = Set(["Yellow Card", "Second Yellow card"])
        return [
            ("Shots on Goal", String(shots.home), String(shots.away)),
            ("Total Shots", String(shots.home * 2 + 1), String(shots.away * 2 + 1)),
            ("Corner Kicks", String(elapsed / 14 + id % 2), String(elapsed / 17)),
            ("Ball Possession", "\(possession)%", "\(100 - possession)%"),
            ("Yellow Cards", String(count(.home, "Card", cards)), String(count(.away, "Card", cards))),
            (
                "Red Cards", String(count(.home, "Card", ["Red Card", "Second Yellow card"])),
                String(count(.away, "Card", ["Red Card", "Second Yellow card"]))
            ),
        ]
    }
}
