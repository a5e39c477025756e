import Contracts
import ServiceHTTP

extension Geodesy {
    static func heading(from a: Coordinates, to b: Coordinates) -> Heading {
        Heading(distanceMeters: distanceMeters(from: a, to: b), bearingDegrees: (bearing(from: a, to: b) * 10).rounded() / 10)
    }
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
