import Contracts
import ServiceHTTP

extension Geodesy {
    static func heading(from a: Coordinates, to b: Coordinates) -> Heading {
        Heading(distanceMeters: distanceMeters(from: a, to: b), bearingDegrees: (bearing(from: a, to: b) * 10).rounded() / 10)
    }
}

extension Course {
    /// Where `hole`'s tee and basket are from `position`, and the tee after it when it is known: a 422
    /// for a hole the course does not have, a 409 for one not surveyed.
    func navigation(from position: Coordinates, hole number: Int) throws -> Navigation {
        guard let index = holes.firstIndex(where: { $0.number == number }) else {
            throw CommonError.invalid("hole", "must be a hole of this course (1–\(holeCount))")
        }
        let hole = holes[index]
        guard let tee = hole.tee, let basket = hole.basket else { throw CatalogError.noHolePositions(hole: number) }
        let next = holes.indices.contains(index + 1) ? holes[index + 1] : nil
        return Navigation(
            hole: hole.number, tee: Geodesy.heading(from: position, to: tee), basket: Geodesy.heading(from: position, to: basket),
            nextTee: next.flatMap { next in
                next.tee.map { tee in
                    let heading = Geodesy.heading(from: position, to: tee)
                    return NextTee(hole: next.number, distanceMeters: heading.distanceMeters, bearingDegrees: heading.bearingDegrees)
                }
            })
    }
}
