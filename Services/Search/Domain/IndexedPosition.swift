import Contracts

/// What the spatial index is given for a position, so that no position a client may send makes
/// PostgreSQL's arithmetic fail.
///
/// PostgreSQL raises "value out of range: underflow" where a float operation on numbers other than
/// zero comes to zero. `ll_to_earth` did on a latitude or longitude of 5e-324, which lies between -90
/// and 90 as the API asks: a game there failed the index's expression at every insert, so search
/// refused every later delivery of games' events, and a search around it answered 500 (as did one of
/// radius 5e-324 km, in `earth_box`). The GiST index over points does too: choosing where a point
/// goes multiplies the sides of boxes, and sides of about 1e-300° multiply to an underflow (tried on
/// PostgreSQL 15). The index's columns keep a position to 1e-9° (about 0.1 mm;
/// smaller magnitudes become 0), and a search asks the index for at least a metre around its centre
/// (`Search`), so its boxes still hold every place the circle holds; the distance a result shows is
/// worked out from the same columns. Each document keeps the position its client sent.
enum IndexedPosition {
    static let resolutionDegrees = 1e-9
    static let smallestBoxRadiusMeters = 1.0

    static func of(_ coordinates: Coordinates) -> Coordinates {
        Coordinates(lat: kept(coordinates.lat), lng: kept(coordinates.lng))
    }

    private static func kept(_ degrees: Double) -> Double {
        abs(degrees) < resolutionDegrees ? 0 : degrees
    }
}
