/// Query parameters several operations share.
extension QueryParameter {

    /// `?limit=` (1–100, default 20) and the opaque `?cursor=` a previous page gave.
    public static let paging: [QueryParameter] = [
        QueryParameter("limit", JSONSchema.integer(1...100).defaulting(to: .number(20))),
        QueryParameter("cursor", PageCursor.schema.described("nextCursor of the previous page")),
    ]

    public static func choice<E: WireEnum>(_ name: String, _ type: E.Type, required: Bool = false, description: String? = nil)
        -> QueryParameter
    {
        QueryParameter(name, .oneOf(E.allCases.map(\.rawValue)), required: required, description: description)
    }

    public static let sport = choice("sport", Sport.self)

    /// `?lat=&lng=`: where the caller stands, both or neither. One parameter holding an object, which
    /// OpenAPI's default query style (form, exploded) writes as `lat=…&lng=…`: that is how the
    /// document says the two come together.
    public static let position: [QueryParameter] = [
        QueryParameter("position", positionSchema, description: "where you are, for distanceMeters: lat and lng together")
    ]

    static var positionSchema: JSONSchema {
        var schema = JSONSchema.object
        schema.properties = ["lat": .latitude, "lng": .longitude]
        schema.required = ["lat", "lng"]
        return schema
    }

    /// `?lat=&lng=&radiusKm=`: a search area.
    public static let area: [QueryParameter] = [
        QueryParameter("lat", .latitude, required: true),
        QueryParameter("lng", .longitude, required: true),
        QueryParameter("radiusKm", radiusKm, description: "default 160.934 (100 miles)"),
    ]

    public static var radiusKm: JSONSchema {
        var schema = JSONSchema.number
        schema.exclusiveMinimum = 0
        schema.maximum = 500
        return schema.defaulting(to: .number(160.934))
    }

    /// `?scope=mine`: lists of games and rounds are the caller's own; search finds others'.
    public static let mineScope = QueryParameter("scope", .oneOf(["mine"]), required: true)
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
