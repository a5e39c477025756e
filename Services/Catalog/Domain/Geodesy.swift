import Contracts
import Foundation

/// Great-circle arithmetic on a spherical Earth: good to about 0.5 %, plenty for walking a course.
enum Geodesy {
    static let earthRadiusMeters = 6_371_008.8

    /// Haversine distance in metres.
    static func distance(from a: Coordinates, to b: Coordinates) -> Double {
        let φ1 = radians(a.lat), φ2 = radians(b.lat)
        let Δφ = radians(b.lat - a.lat), Δλ = radians(b.lng - a.lng)
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * earthRadiusMeters * atan2(sqrt(h), sqrt(1 - h))
    }

    /// Initial bearing from `a` towards `b`, degrees clockwise from true north in [0, 360).
    static func bearing(from a: Coordinates, to b: Coordinates) -> Double {
        let φ1 = radians(a.lat), φ2 = radians(b.lat), Δλ = radians(b.lng - a.lng)
        let y = sin(Δλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
        let degrees = atan2(y, x) * 180 / .pi
        return (degrees + 360).truncatingRemainder(dividingBy: 360)
    }

    static func heading(from a: Coordinates, to b: Coordinates) -> Heading {
        Heading(distanceMeters: Int(distance(from: a, to: b).rounded()), bearingDegrees: (bearing(from: a, to: b) * 10).rounded() / 10)
    }

    private static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
}

extension Course {
    /// Where `hole`'s tee and basket are from `position`, and the tee after it.
    func navigation(from position: Coordinates, hole number: Int) -> Navigation? {
        guard let index = holes.firstIndex(where: { $0.number == number }) else { return nil }
        let hole = holes[index]
        let next = holes.indices.contains(index + 1) ? holes[index + 1] : nil
        return Navigation(
            hole: hole.number, tee: Geodesy.heading(from: position, to: hole.tee),
            basket: Geodesy.heading(from: position, to: hole.basket),
            nextTee: next.map { next in
                let heading = Geodesy.heading(from: position, to: next.tee)
                return NextTee(hole: next.number, distanceMeters: heading.distanceMeters, bearingDegrees: heading.bearingDegrees)
            })
    }
}
