import Foundation
import Hummingbird

/// Nominatim's structured search by postcode, for a few postcodes where the demo and the tests play:
/// `GET /search?postalcode=&countrycode=&format=jsonv2` → a JSON array of places, as Nominatim writes
/// them (coordinates as strings), empty for a postcode it does not know; Nominatim's
/// `{error: {code, message}}` with 400 when there is nothing to search for.
public enum GeocodingStandIn {
    /// A postcode it knows: in `country` (ISO 3166-1 alpha-2, lower case), at `lat`, `lng`.
    public struct Known: Sendable {
        public let postcode: String
        public let country: String
        public let lat: Double
        public let lng: Double
        let place: String
    }

    public static let known = [
        Known(postcode: "3977", country: "au", lat: -38.1096, lng: 145.2834, place: "Cranbourne, City of Casey, Victoria, Australia"),
        Known(postcode: "3806", country: "au", lat: -38.0340, lng: 145.3520, place: "Berwick, City of Casey, Victoria, Australia"),
        Known(postcode: "3805", country: "au", lat: -38.0285, lng: 145.3040, place: "Narre Warren, City of Casey, Victoria, Australia"),
        Known(postcode: "10115", country: "de", lat: 52.5323, lng: 13.3846, place: "Mitte, Berlin, Deutschland"),
        Known(postcode: "00184", country: "it", lat: 41.8946, lng: 12.4937, place: "Monti, Roma, Lazio, Italia"),
        Known(postcode: "10111", country: "ee", lat: 59.4372, lng: 24.7454, place: "Kesklinna linnaosa, Tallinn, Harju maakond, Eesti"),
        Known(postcode: "51003", country: "ee", lat: 58.3780, lng: 26.7290, place: "Tartu linn, Tartu maakond, Eesti"),
    ]

    static func add(to router: Router<BasicRequestContext>) {
        router.get("search") { request, _ -> Response in
            let query = request.uri.queryParameters
            guard let postcode = query["postalcode"].map(String.init), !postcode.isEmpty else {
                return try Response.json(["error": Refusal(code: 400, message: "Nothing to search for.")], status: .badRequest)
            }
            guard ["json", "jsonv2"].contains(query["format"].map(String.init) ?? "json") else {
                return try Response.json(["error": Refusal(code: 400, message: "Parameter 'format': unknown value.")], status: .badRequest)
            }
            let country = query["countrycode"].map { String($0).lowercased() }
            let normalized = postcode.uppercased().split(separator: " ").joined(separator: " ")
            let found = known.filter { $0.postcode == normalized && (country == nil || country == $0.country) }.enumerated().map {
                index, known in
                Place(
                    placeID: 300_000 + index, lat: String(known.lat), lon: String(known.lng), name: known.postcode,
                    displayName: "\(known.postcode), \(known.place)")
            }
            return try Response.json(found, status: .ok)
        }
    }

    /// A place as Nominatim's `jsonv2` writes it.
    struct Place: Encodable {
        let placeID: Int
        var licence = "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright"
        var osmType = "relation"
        let lat: String
        let lon: String
        var category = "boundary"
        var type = "postal_code"
        var placeRank = 21
        var addresstype = "postcode"
        let name: String
        let displayName: String

        enum CodingKeys: String, CodingKey {
            case placeID = "place_id", licence, osmType = "osm_type", lat, lon, category, type, placeRank = "place_rank", addresstype, name
            case displayName = "display_name"
        }
    }

    struct Refusal: Encodable {
        let code: Int
        let message: String
    }
}
