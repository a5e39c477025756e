public import Contracts
import Foundation

/// Great-circle arithmetic on a spherical Earth: good to about 0.5 %, plenty for walking a course
/// or telling someone how far away a game is.
public enum Geodesy {
    public static let earthRadiusMeters = 6_371_008.8

    /// Haversine distance in metres.
    public static func distance(from a: Coordinates, to b: Coordinates) -> Double {
        let φ1 = radians(a.lat), φ2 = radians(b.lat)
        let Δφ = radians(b.lat - a.lat), Δλ = radians(b.lng - a.lng)
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * earthRadiusMeters * atan2(sqrt(h), sqrt(1 - h))
    }

    /// Whole metres, as responses carry them (`distanceMeters`).
    public static func distanceMeters(from a: Coordinates, to b: Coordinates) -> Int {
        Int(distance(from: a, to: b).rounded())
    }

    /// Initial bearing from `a` towards `b`, degrees clockwise from true north in [0, 360).
    public static func bearing(from a: Coordinates, to b: Coordinates) -> Double {
        let φ1 = radians(a.lat), φ2 = radians(b.lat), Δλ = radians(b.lng - a.lng)
        let y = sin(Δλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)
        let degrees = atan2(y, x) * 180 / .pi
        return (degrees + 360).truncatingRemainder(dividingBy: 360)
    }

    private static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
}
