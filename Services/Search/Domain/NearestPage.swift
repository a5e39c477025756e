import Contracts
import Foundation
import ServiceHTTP

/// Where a nearest-first list goes on from: the distance of the last result shown, and how many of
/// the results at exactly that distance were shown. A page is then the next results by distance
/// (ties in their list's order) from that distance on, whatever came before it, so a page deep in a
/// city costs what the first one costs there: the index is asked only for the ring it needs.
struct NearestCursor: Equatable, Sendable {
    var meters: Int
    var shownAtMeters: Int

    static let start = NearestCursor(meters: 0, shownAtMeters: 0)

    init(meters: Int, shownAtMeters: Int) {
        self.meters = meters
        self.shownAtMeters = shownAtMeters
    }

    /// From a page request's cursor text (`<meters>:<shown>`); the start without one.
    init(_ page: PageRequest) throws {
        guard let text = page.cursor else {
            self = .start
            return
        }
        let parts = text.split(separator: ":").map { Int($0) }
        guard parts.count == 2, let meters = parts[0], let shown = parts[1], meters >= 0, shown >= 0 else {
            throw CommonError.invalid("cursor", "is not a cursor this list gave out")
        }
        self.init(meters: meters, shownAtMeters: shown)
    }

    var text: String { "\(meters):\(shownAtMeters)" }

    /// The cursor after `shown`, the distances of a page's results in order, read from this one.
    func after(_ shown: [Int]) -> NearestCursor {
        guard let last = shown.last else { return self }
        let atLast = shown.reversed().prefix { $0 == last }.count
        return NearestCursor(meters: last, shownAtMeters: atLast + (last == meters ? shownAtMeters : 0))
    }
}

/// How far the rings grow: pure, so the rule is tested on its own. The first ring reaches
/// `firstBand` past the cursor. The next is sized from what the last held, for the results still
/// wanted, as if they lay as thick further out (a quarter more, for luck); its band at least doubles
/// and at most grows eightfold, until the area's radius.
enum NearestRings {
    static let firstBand = 500.0

    /// The radius of the ring after one of `radius` around a cursor at `meters`, which held `found`
    /// of the `wanted` results, at most `limit`.
    static func next(after radius: Double?, from meters: Double, found: Int = 0, wanted: Int = 1, limit: Double) -> Double {
        guard let radius else { return min(limit, meters + firstBand) }
        let band = max(firstBand, radius - meters)
        // Results grow with the ring's area: the band's square root of what is still missing.
        let growth = found > 0 ? (Double(wanted) / Double(found)).squareRoot() * 1.25 : 8
        return min(limit, meters + band * min(8, max(2, growth)))
    }
}

extension Search {
    /// The page of `page.limit` results within `area` after the cursor, nearest first (ties by
    /// `tie`), and the cursor of the next page when there is one. The index is asked for boxes that
    /// grow from the cursor's distance (`NearestRings`) until they hold one result more than the page
    /// or the whole area: every result within a ring's radius is in its box, so the nearest of them
    /// are the nearest of all.
    func nearestPage(
        _ kind: PlaceKind, in area: SearchArea, filter: PlaceFilter, page: PageRequest, tie: (Hit) throws -> String
    ) async throws -> (hits: [Hit], next: String?) {
        let cursor = try NearestCursor(page)
        var radius: Double?, heldBeyondCursor = 0
        while true {
            let ring = NearestRings.next(
                after: radius, from: Double(cursor.meters), found: heldBeyondCursor, wanted: page.limit + 1, limit: area.radiusMeters)
            radius = ring
            let found = try await nearby(kind, in: SearchArea(center: area.center, radiusKm: ring / 1000), filter: filter)
                .filter { $0.distanceMeters >= cursor.meters }
            var keyed = try found.map { (hit: $0, tie: try tie($0)) }
            keyed.sort { ($0.hit.distanceMeters, $0.tie) < ($1.hit.distanceMeters, $1.tie) }
            let fresh = Array(
                keyed.dropFirst(keyed.prefix { $0.hit.distanceMeters == cursor.meters }.count.clamped(to: cursor.shownAtMeters)))
            heldBeyondCursor = fresh.count
            guard fresh.count > page.limit || ring >= area.radiusMeters else { continue }
            let shown = fresh.prefix(page.limit).map(\.hit)
            let next = fresh.count > page.limit ? PageRequest.cursor(cursor.after(shown.map(\.distanceMeters)).text) : nil
            return (shown, next)
        }
    }
}

extension Int {
    /// At most `upper`.
    fileprivate func clamped(to upper: Int) -> Int { Swift.min(self, upper) }
}
