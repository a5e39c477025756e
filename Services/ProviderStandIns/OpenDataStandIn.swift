import Foundation
import Hummingbird

/// An Opendatasoft portal's Explore API v2.1, serving a City of Casey-shaped dataset of sports grounds:
/// `GET /api/explore/v2.1/catalog/datasets/{id}/records?limit=&offset=` → `{total_count, results}` (at most
/// 100 a call, as the portal allows; 400 with the portal's error body past it); an unknown dataset is the
/// portal's 404.
public enum OpenDataStandIn {
    public static let dataset = "sports-grounds"

    /// A ground as the dataset describes it (its fields named as the portal names them).
    public struct Ground: Encodable, Sendable {
        struct Point: Encodable {
            let lon: Double
            let lat: Double
        }
        public let reserveID: String
        public let reserveName: String
        let streetAddress: String
        let suburb: String
        let postcode: String
        let sports: String
        let facilities: String
        let geoPoint: Point

        enum CodingKeys: String, CodingKey {
            case reserveID = "reserve_id", reserveName = "reserve_name", streetAddress = "street_address", suburb, postcode, sports
            case facilities, geoPoint = "geo_point_2d"
        }
    }

    public static let grounds = [
        ground(
            "R0101", "Casey Fields", "160 Berwick-Cranbourne Road", "Cranbourne East", "3977", "Football (Australian); Cricket; Soccer",
            "Regional sports precinct: an AFL stadium, cricket ovals, soccer pitches and an athletics track", -38.1038, 145.3140),
        ground(
            "R0102", "Sweeney Reserve", "Sweeney Drive", "Narre Warren", "3805", "Cricket; Football (Australian)",
            "Two ovals with turf wickets, pavilion and lights", -38.0218, 145.2947),
        ground(
            "R0103", "Edwin Flack Reserve", "Parkhill Drive", "Berwick", "3806", "Soccer; Cricket; Tennis",
            "Soccer pitches, a cricket oval and four tennis courts", -38.0365, 145.3598),
        ground(
            "R0104", "Arch Brown Reserve", "Heatherton Road", "Endeavour Hills", "3802", "Cricket; Soccer",
            "Oval and soccer pitch with change rooms", -37.9770, 145.2580),
        ground(
            "R0105", "Max Pawsey Reserve", "Amberly Park Drive", "Narre Warren", "3805", "Cricket; Netball",
            "Cricket oval, netball courts and playground", -38.0260, 145.3009),
        ground(
            "R0106", "Tooradin Recreation Reserve", "Bayview Road", "Tooradin", "3980", "Cricket; Football (Australian); Tennis",
            "Oval, tennis courts and clubrooms by Western Port", -38.2135, 145.3790),
    ]

    static func ground(
        _ id: String, _ name: String, _ street: String, _ suburb: String, _ postcode: String, _ sports: String, _ facilities: String,
        _ lat: Double, _ lon: Double
    ) -> Ground {
        Ground(
            reserveID: id, reserveName: name, streetAddress: street, suburb: suburb, postcode: postcode, sports: sports,
            facilities: facilities, geoPoint: .init(lon: lon, lat: lat))
    }

    struct Page: Encodable {
        let totalCount: Int
        let results: [Ground]

        enum CodingKeys: String, CodingKey { case totalCount = "total_count", results }
    }

    struct Refusal: Encodable {
        let errorCode: String
        let message: String

        enum CodingKeys: String, CodingKey { case errorCode = "error_code", message }
    }

    static func add(to router: Router<BasicRequestContext>) {
        router.get("api/explore/v2.1/catalog/datasets/:dataset/records") { request, context -> Response in
            guard context.parameters.get("dataset") == dataset else {
                return try Response.json(
                    Refusal(errorCode: "NotFound", message: "Unknown dataset: \(context.parameters.get("dataset") ?? "")"),
                    status: .notFound)
            }
            let query = request.uri.queryParameters
            let limit = query["limit"].flatMap { Int(String($0)) } ?? 10, offset = query["offset"].flatMap { Int(String($0)) } ?? 0
            guard (0...100).contains(limit), offset >= 0 else {
                return try Response.json(
                    Refusal(errorCode: "InvalidRESTParameterError", message: "Invalid value for limit API parameter"), status: .badRequest)
            }
            let page = Array(grounds.dropFirst(offset).prefix(limit))
            return try Response.json(Page(totalCount: grounds.count, results: page), status: .ok)
        }
    }
}
