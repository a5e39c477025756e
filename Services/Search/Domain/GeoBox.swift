import Contracts
import Foundation
import ServiceHTTP

/// The latitude/longitude boxes that hold every point within `radiusMeters` of a centre: what a
/// spatial index can answer before the exact haversine check. Near a pole the box spans every
/// longitude; across the antimeridian it splits in two.
struct GeoBox: Equatable, Sendable {
    var minLat: Double
    var maxLat: Double
    var minLng: Double
    var maxLng: Double

    static func covering(_ center: Coordinates, radiusMeters: Double) -> [GeoBox] {
        let angular = radiusMeters / Geodesy.earthRadiusMeters
        let latDelta = angular * 180 / .pi
        let minLat = center.lat - latDelta, maxLat = center.lat + latDelta
        if minLat <= -90 || maxLat >= 90 {
            return [GeoBox(minLat: max(minLat, -90), maxLat: min(maxLat, 90), minLng: -180, maxLng: 180)]
        }
        // The widest longitude span of the circle, at the latitude where it is tangent to a meridian.
        let lngDelta = asin(min(1, sin(angular) / cos(center.lat * .pi / 180))) * 180 / .pi
        let west = center.lng - lngDelta, east = center.lng + lngDelta
        if west < -180 {
            return [
                GeoBox(minLat: minLat, maxLat: maxLat, minLng: -180, maxLng: east),
                GeoBox(minLat: minLat, maxLat: maxLat, minLng: west + 360, maxLng: 180),
            ]
        }
        if east > 180 {
            return [
                GeoBox(minLat: minLat, maxLat: maxLat, minLng: west, maxLng: 180),
                GeoBox(minLat: minLat, maxLat: maxLat, minLng: -180, maxLng: east - 360),
            ]
        }
        return [GeoBox(minLat: minLat, maxLat: maxLat, minLng: west, maxLng: east)]
    }
}
