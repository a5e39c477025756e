/// Query parameters several operations share.
extension QueryParameter {
    /// `?limit=` (1–100, default 20) and the opaque `?cursor=` a previous page gave.
    public static let paging: [QueryParameter] = [
        QueryParameter("limit", JSONSchema.integer(1...100).defaulting(to: .number(20))),
        QueryParameter("cursor", JSONSchema.string.described("nextCursor of the previous page")),
    ]

    public static func choice<E: WireEnum>(_ name: String, _ type: E.Type, required: Bool = false, description: String? = nil)
        -> QueryParameter
    {
        QueryParameter(name, .oneOf(E.allCases.map(\.rawValue)), required: required, description: description)
    }

    public static let sport = choice("sport", Sport.self)

    /// `?lat=&lng=`: where the caller stands, both or neither.
    public static let position: [QueryParameter] = [
        QueryParameter("lat", .latitude, description: "where you are, for distanceMeters; with lng"),
        QueryParameter("lng", .longitude, description: "with lat"),
    ]

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
