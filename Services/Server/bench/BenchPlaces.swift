import ArgumentParser
import Contracts
import Foundation

/// Where a benchmark's games are: spread evenly between Lisbon and the Urals, Crete and the North
/// Cape, or where people live — in cities, by population, thick in the centre and thinning out.
enum BenchPlaces: String, ExpressibleByArgument, CaseIterable {
    case uniform, clustered

    /// European cities and their metropolitan populations in millions (rounded, 2020s): enough for
    /// games to pile up as they do, without a data file.
    static let cities: [(name: String, at: Coordinates, millions: Double)] = [
        ("London", Coordinates(lat: 51.507, lng: -0.128), 14.0), ("Paris", Coordinates(lat: 48.857, lng: 2.352), 12.3),
        ("Madrid", Coordinates(lat: 40.417, lng: -3.704), 6.7), ("Berlin", Coordinates(lat: 52.520, lng: 13.405), 6.1),
        ("Barcelona", Coordinates(lat: 41.385, lng: 2.173), 5.6), ("Milan", Coordinates(lat: 45.464, lng: 9.190), 4.3),
        ("Rome", Coordinates(lat: 41.903, lng: 12.496), 4.3), ("Athens", Coordinates(lat: 37.984, lng: 23.728), 3.6),
        ("Hamburg", Coordinates(lat: 53.551, lng: 9.994), 3.2), ("Warsaw", Coordinates(lat: 52.230, lng: 21.012), 3.1),
        ("Budapest", Coordinates(lat: 47.498, lng: 19.040), 3.0), ("Lisbon", Coordinates(lat: 38.722, lng: -9.139), 2.9),
        ("Munich", Coordinates(lat: 48.135, lng: 11.582), 2.9), ("Vienna", Coordinates(lat: 48.208, lng: 16.374), 2.9),
        ("Amsterdam", Coordinates(lat: 52.368, lng: 4.904), 2.5), ("Stockholm", Coordinates(lat: 59.329, lng: 18.069), 2.4),
        ("Bucharest", Coordinates(lat: 44.426, lng: 26.102), 2.3), ("Prague", Coordinates(lat: 50.076, lng: 14.438), 2.2),
        ("Brussels", Coordinates(lat: 50.850, lng: 4.352), 2.1), ("Copenhagen", Coordinates(lat: 55.676, lng: 12.568), 2.1),
        ("Dublin", Coordinates(lat: 53.350, lng: -6.260), 2.0), ("Helsinki", Coordinates(lat: 60.170, lng: 24.938), 1.5),
        ("Oslo", Coordinates(lat: 59.914, lng: 10.752), 1.5), ("Riga", Coordinates(lat: 56.950, lng: 24.105), 0.9),
        ("Tallinn", Coordinates(lat: 59.437, lng: 24.754), 0.6), ("Tartu", Coordinates(lat: 58.378, lng: 26.729), 0.1),
    ]

    static var densest: (name: String, at: Coordinates, millions: Double) { cities.max { $0.millions < $1.millions }! }

    /// A game's place: uniform, or near a city picked by population, normally distributed around
    /// its centre with a spread that grows with the city (8 km a million people's square root).
    func position(using random: inout some RandomNumberGenerator) -> Coordinates {
        switch self {
        case .uniform:
            return Coordinates(lat: .random(in: 36...70, using: &random), lng: .random(in: -10...40, using: &random))
        case .clustered:
            var pick = Double.random(in: 0..<Self.totalMillions, using: &random)
            let city =
                Self.cities.first {
                    pick -= $0.millions; return pick < 0
                } ?? Self.cities[0]
            return Self.near(city.at, sigmaKm: 8 * city.millions.squareRoot(), using: &random)
        }
    }

    /// Where searches are made: around the games themselves (uniform), or in the densest city,
    /// within 3 km of its centre (clustered).
    func searchCenters(from games: [Coordinates], using random: inout some RandomNumberGenerator) -> [Coordinates] {
        switch self {
        case .uniform: return games
        case .clustered: return (0..<500).map { _ in Self.near(Self.densest.at, sigmaKm: 1.5, using: &random) }
        }
    }

    private static let totalMillions = cities.map(\.millions).reduce(0, +)

    /// A point `sigmaKm` of normal spread around `center` (Box–Muller).
    private static func near(_ center: Coordinates, sigmaKm: Double, using random: inout some RandomNumberGenerator) -> Coordinates {
        let u = Double.random(in: Double.ulpOfOne..<1, using: &random), v = Double.random(in: 0..<1, using: &random)
        let radius = sigmaKm * (-2 * log(u)).squareRoot(), angle = 2 * Double.pi * v
        let north = radius * cos(angle) / 111.32, east = radius * sin(angle) / (111.32 * cos(center.lat * .pi / 180))
        return Coordinates(lat: min(89.9, max(-89.9, center.lat + north)), lng: center.lng + east)
    }
}
