// The limits servers check on request fields, declared beside the wire types so the OpenAPI
// document states them and the servers' checks read the same values.

extension Coordinates: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["lat": .latitude, "lng": .longitude] }
}

extension Location: FieldConstraints {
    public static let addressLength = 0...200
    public static var constraints: [String: JSONSchema] {
        ["lat": .latitude, "lng": .longitude, "address": .text(addressLength)]
    }
}

extension Hole: FieldConstraints {
    public static let parRange = 2...7
    public static var constraints: [String: JSONSchema] { ["number": .integer(1...maxNumber), "par": .integer(parRange)] }
}

extension RegisterRequest: FieldConstraints {
    public static let passwordLength = 10...72
    public static var constraints: [String: JSONSchema] {
        ["email": JSONSchema.string.format("email"), "password": .text(passwordLength)]
    }
}

extension ScoreUpdate: FieldConstraints {
    public static let strokesRange = 1...20
    public static var constraints: [String: JSONSchema] { ["strokes": .integer(strokesRange), "hole": .integer(1...Hole.maxNumber)] }
}

extension SubstitutesRequest: FieldConstraints {
    public static let neededRange = 0...50
    public static var constraints: [String: JSONSchema] { ["needed": .integer(neededRange)] }
}

extension SetRosterStatusRequest: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["status": .oneOf(RosterStatus.answers.map(\.rawValue))] }
}

/// Game fields a client sends when planning or changing a game.
public enum GameLimits {
    public static let capacity = 1...500
    public static let descriptionLength = 0...1000
    static var constraints: [String: JSONSchema] { ["capacity": .integer(capacity), "description": .text(descriptionLength)] }
}

extension CreateGameRequest: FieldConstraints {
    public static var constraints: [String: JSONSchema] { GameLimits.constraints }
}

extension UpdateGameRequest: FieldConstraints {
    public static var constraints: [String: JSONSchema] { GameLimits.constraints }
}
