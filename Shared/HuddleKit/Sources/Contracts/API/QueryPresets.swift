import Foundation

/// Query fields several operations share.
extension Query {
    /// `?limit=` (1–100, default 20).
    public static let limit = integer("limit", 1...100, fallback: 20)

    /// The opaque `?cursor=` a previous page gave, as sent; the service that made it reads it.
    public static let cursor = optional(
        "cursor", PageCursor.schema.described("nextCursor of the previous page"), problem: "is not a cursor this list gave out",
        parse: { $0 }, text: { $0 })

    /// `?limit=&cursor=`.
    public static let paging: [any QueryDescribing] = [limit, cursor]

    public static let sport = choice("sport", Sport.self)

    /// `?lat=&lng=`: where the caller stands, both or neither. One parameter holding an object, which
    /// OpenAPI's default query style (form, exploded) writes as `lat=…&lng=…`: that is how the
    /// document says the two come together.
    public static let position = QueryField<Coordinates?>(
        [QueryParameter("position", positionSchema, description: "where you are, for distanceMeters: lat and lng together")],
        refusal: { raw in
            raw("lat") == nil ? .init(field: "lat", message: "is required with lng") : .init(field: "lng", message: "is required with lat")
        },
        read: { raw in
            switch (raw("lat").flatMap(Double.init), raw("lng").flatMap(Double.init)) {
            case (nil, nil): .some(nil)
            case (let lat?, let lng?): Coordinates(lat: lat, lng: lng)
            default: nil
            }
        },
        write: { position in position.map { [("lat", String($0.lat)), ("lng", String($0.lng))] } ?? [] })

    static var positionSchema: JSONSchema {
        var schema = JSONSchema.object
        schema.properties = ["lat": .latitude, "lng": .longitude]
        schema.required = ["lat", "lng"]
        return schema
    }

    /// `?lat=&lng=`, both required: the place a search or a navigation is from.
    public static let place = QueryField<Coordinates>(
        [QueryParameter("lat", .latitude, required: true), QueryParameter("lng", .longitude, required: true)],
        read: { raw in
            guard let lat = raw("lat").flatMap(Double.init), let lng = raw("lng").flatMap(Double.init) else { return nil }
            return Coordinates(lat: lat, lng: lng)
        },
        write: { [("lat", String($0.lat)), ("lng", String($0.lng))] })

    /// `?lat=&lng=` or `?postcode=&country=`: where a search looks from, a point or a postal code
    /// (found through a geocoding provider), one or the other.
    public static let searchOrigin = QueryField<SearchOrigin>(
        [
            QueryParameter("lat", .latitude, description: "with lng; or postcode and country instead"),
            QueryParameter("lng", .longitude, description: "with lat"),
            QueryParameter("postcode", Postcode.schema, description: "with country, instead of lat and lng"),
            QueryParameter("country", Postcode.countrySchema, description: "ISO 3166-1 alpha-2, with postcode"),
        ],
        refusal: { raw in
            switch (raw("lat") != nil || raw("lng") != nil, raw("postcode") != nil || raw("country") != nil) {
            case (true, true): .init(field: "postcode", message: "is not taken with lat and lng")
            case (false, false): .init(field: "lat", message: "is required with lng, or postcode with country")
            case (true, false):
                raw("lat") == nil
                    ? .init(field: "lat", message: "is required with lng") : .init(field: "lng", message: "is required with lat")
            case (false, true):
                raw("postcode") == nil
                    ? .init(field: "postcode", message: "is required with country")
                    : .init(field: "country", message: "is required with postcode")
            }
        },
        read: { raw in
            switch (raw("lat").flatMap(Double.init), raw("lng").flatMap(Double.init), raw("postcode"), raw("country")) {
            case (let lat?, let lng?, nil, nil): .point(Coordinates(lat: lat, lng: lng))
            case (nil, nil, let postcode?, let country?): .postcode(postcode, country: country)
            default: nil
            }
        },
        write: { origin in
            switch origin {
            case .point(let point): [("lat", String(point.lat)), ("lng", String(point.lng))]
            case .postcode(let postcode, let country): [("postcode", postcode), ("country", country)]
            }
        })

    /// `?radiusKm=`: how far from the place a search looks, 100 miles unless said.
    public static let radiusKm = defaulted(
        "radiusKm", radiusSchema, fallback: 160.934, description: "default 160.934 (100 miles)",
        parse: { Double($0).flatMap { $0 > 0 && $0 <= maxRadiusKm ? $0 : nil } }, text: { String($0) })

    public static let maxRadiusKm = 500.0

    static var radiusSchema: JSONSchema {
        var schema = JSONSchema.number
        schema.exclusiveMinimum = 0
        schema.maximum = maxRadiusKm
        return schema.defaulting(to: .number(160.934))
    }

    /// `?scope=mine`: lists of games and rounds are the caller's own; search finds others'.
    public static let mineScope = requiredChoice("scope", ListScope.self)
}

/// The one scope lists of one's own games and rounds take.
public enum ListScope: String, Sendable, CaseIterable, Codable, WireEnum {
    case mine
}

/// `GET /v1/teams?member=me`: the teams I belong to, rather than a search.
public enum MemberFilter: String, Sendable, CaseIterable, Codable, WireEnum {
    case me
}

/// `GET /v1/games?when=`: which of my games the list shows.
public enum GameWindow: String, Sendable, CaseIterable, Codable, WireEnum {
    /// From now on, soonest first.
    case upcoming
    /// Already started, most recent first.
    case past
    /// Upcoming, and waiting for my answer (invited) or the organiser's (pending).
    case pending
}

/// Which of a venue's games `GET /v1/venues/{id}/games` lists.
public enum VenueGamesWindow: String, Sendable, CaseIterable, Codable, WireEnum {
    /// From now on, soonest first.
    case upcoming
    /// Already started, most recent first.
    case past

    public var window: GameWindow { self == .upcoming ? .upcoming : .past }
}

/// The `cursor` a list gives out: base64url, as `PageRequest` writes it. A client only sends back one
/// it was given; any other answers 422.
public enum PageCursor {
    public static let alphabet = "A-Za-z0-9_-"
    public static let maxLength = 1024
    public static var schema: JSONSchema { JSONSchema.string.length(0...maxLength).pattern(JSONSchema.whole("[\(alphabet)]*")) }
}

/// `GET /v1/teams?q=`: empty lists every team.
public enum TeamSearch {
    public static let text = TextRule(0...80)
}

/// `GET /v1/search/players?q=`.
public enum PlayerSearch {
    public static let text = TextRule(1...80)
}
