// The limits servers check on request fields, declared beside the wire types so the OpenAPI
// document states them and the servers' checks read the same values.

extension Coordinates: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["lat": .latitude, "lng": .longitude] }
}

extension Location: FieldConstraints {
    public static let address = TextRule(0...200)
    public static var constraints: [String: JSONSchema] {
        ["lat": .latitude, "lng": .longitude, "address": address.schema]
    }
}

extension TextRule {
    /// Names of teams, leagues, venues and courses.
    public static let catalogName = TextRule(2...80)
    /// A person's display name.
    public static let personName = TextRule(1...100)
}

extension WebAddressRule {
    public static let picture = WebAddressRule(maxLength: 2048)
    public static let website = WebAddressRule(maxLength: 500)
}

extension CreateTeamRequest: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["name": TextRule.catalogName.schema] }
}

extension UpdateTeamRequest: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["name": TextRule.catalogName.schema] }
}

extension UpdateLeagueRequest: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["name": TextRule.catalogName.schema] }
}

extension CreateLeagueRequest: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["name": TextRule.catalogName.schema] }
}

extension CreateVenueRequest: FieldConstraints {
    public static let description = TextRule(0...2000)
    public static var constraints: [String: JSONSchema] {
        [
            "name": TextRule.catalogName.schema, "website": WebAddressRule.website.schema, "description": description.schema,
            "postcode": Postcode.schema,
        ]
    }
}

extension CreateCourseRequest: FieldConstraints {
    public static var constraints: [String: JSONSchema] {
        ["name": TextRule.catalogName.schema, "website": WebAddressRule.website.schema]
    }
}

extension UpdateCourseRequest: FieldConstraints {
    public static var constraints: [String: JSONSchema] { CreateCourseRequest.constraints }
}

extension UpdateHoleRequest: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["par": .integer(Hole.parRange)] }
    public static var note: String? { "tee and basket together, or neither" }
}

extension UpdateProfileRequest: FieldConstraints {
    public static var constraints: [String: JSONSchema] {
        [
            "name": TextRule.personName.schema, "pictureUrl": WebAddressRule.picture.schema,
            "locale": JSONSchema.text(2...35).pattern(JSONSchema.whole("[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*")),
        ]
    }
}

extension RoundPlayerRequest: FieldConstraints {
    public static let guestName = TextRule(1...40)
    public static var constraints: [String: JSONSchema] { ["guestName": guestName.schema] }
}

extension UnlistedCourse: FieldConstraints {
    public static var constraints: [String: JSONSchema] {
        ["name": TextRule.catalogName.schema, "holes": JSONSchema().items(1...Hole.maxNumber)]
    }
}

extension ScorecardHole: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["number": .integer(1...Hole.maxNumber), "par": .integer(Hole.parRange)] }
}

extension StartRoundRequest: FieldConstraints {
    public static var constraints: [String: JSONSchema] { [:] }
    public static var note: String? { "courseId or course, one of the two" }
}

extension Hole: FieldConstraints {
    public static let parRange = 2...7
    public static var constraints: [String: JSONSchema] { ["number": .integer(1...maxNumber), "par": .integer(parRange)] }
}

extension RegisterRequest: FieldConstraints {
    /// In characters (Unicode scalars); auth hashes passwords of any length in this range whole.
    public static let passwordLength = 10...128
    public static var constraints: [String: JSONSchema] {
        ["email": emailSchema, "password": passwordSchema, "name": TextRule.personName.schema]
    }

    /// A password as every form that sets one takes it.
    public static var passwordSchema: JSONSchema { JSONSchema.text(passwordLength).pattern(JSONSchema.whole("[^\(Control.members)]*")) }

    /// An address as auth takes it (blanks around it are trimmed): something, one `@`, a domain with a
    /// dot neither first nor last; no blanks or control characters inside. In the schema, so a bad
    /// address is named with the other fields' problems, not in a round after them.
    public static let emailSchema: JSONSchema = {
        let plain = "[^@\\s\(Control.members)]", edge = "[^@.\\s\(Control.members)]"
        // No `format: email`: the pattern is the rule auth holds addresses to, looser than RFC 5322's
        // (a format the server did not hold to would make the document say more than it does).
        return JSONSchema.string.pattern(JSONSchema.whole("\\s*\(plain)+@\(edge)\(plain)*\\.\(plain)*\(edge)\\s*"))
            .described("an email address")
    }()
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

extension RSVPAnswer: FieldConstraints {
    public static var constraints: [String: JSONSchema] {
        ["status": .oneOf(RosterStatus.answers.map(\.rawValue)), "token": .text(1...2000)]
    }
}

/// Game fields a client sends when planning or changing a game.
public enum GameLimits {
    public static let capacity = 1...500
    /// A pick-up game's players without accounts: fewer than the most slots, one being the organiser's.
    public static let alreadyGoing = 0...(capacity.upperBound - 1)
    public static let description = TextRule(0...1000)
    /// An IANA time zone name, e.g. `Europe/Tallinn` or `America/Argentina/Buenos_Aires`.
    public static let timeZone = JSONSchema.text(1...64).pattern(JSONSchema.whole("[A-Za-z][A-Za-z0-9_+-]*(?:/[A-Za-z0-9_+-]+)*"))
    static var constraints: [String: JSONSchema] {
        ["capacity": .integer(capacity), "description": description.schema, "timeZone": timeZone, "alreadyGoing": .integer(alreadyGoing)]
    }
}

extension CreateGameRequest: FieldConstraints {
    public static var constraints: [String: JSONSchema] { GameLimits.constraints }
    public static var note: String? {
        "A team game needs teamId; a league game needs leagueId, homeTeamId and a different awayTeamId; a pickup game "
            + "needs location, sport, privacy, ageGroup, gender and skill. startsAt is in the next two years."
    }
}

extension GameRepeat: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["count": .integer(1...maxGames)] }
    public static var note: String? { "count or until, not both; at most \(maxGames) games" }
}

extension UpdateGameRequest: FieldConstraints {
    public static var constraints: [String: JSONSchema] { GameLimits.constraints }
}

extension NewsIngestRequest: FieldConstraints {
    public static let count = 1...500
    public static var constraints: [String: JSONSchema] { ["articles": JSONSchema().items(count)] }
}

extension NewsArticle {
    public static let countrySchema = Postcode.countrySchema
    public static let languageSchema = JSONSchema.text(2...2).pattern(JSONSchema.whole("[A-Za-z]{2}"))

    /// A country code as stored: two letters, lower case; nil for anything else.
    public static func country(_ text: String) -> String? { twoLetters(text) }
    /// A language code as stored: two letters, lower case; nil for anything else.
    public static func language(_ text: String) -> String? { twoLetters(text) }

    private static func twoLetters(_ text: String) -> String? {
        text.count == 2 && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) } ? text.lowercased() : nil
    }
}

extension NewsIngestRequest.Article: FieldConstraints {
    public static let title = TextRule(1...300)
    public static let summary = TextRule(0...2000)
    public static let source = TextRule(1...100)
    public static let address = WebAddressRule(maxLength: 2048)
    public static var constraints: [String: JSONSchema] {
        [
            "title": title.schema, "summary": summary.schema, "source": source.schema, "url": address.schema,
            "imageUrl": address.schema, "country": NewsArticle.countrySchema, "language": NewsArticle.languageSchema,
        ]
    }

    /// Every field that breaks its rule, named under `field` (e.g. `articles[3]`).
    public func problems(at field: String) -> [(field: String, message: String)] {
        let checks: [(String, String?)] = [
            ("title", Self.title.problem(title)), ("summary", Self.summary.problem(summary)), ("source", Self.source.problem(source)),
            ("url", Self.address.problem(url)), ("imageUrl", imageUrl.flatMap(Self.address.problem)),
            ("country", country.flatMap { NewsArticle.country($0) == nil ? "must be an ISO 3166-1 alpha-2 code" : nil }),
            ("language", language.flatMap { NewsArticle.language($0) == nil ? "must be an ISO 639-1 code" : nil }),
        ]
        return checks.compactMap { name, message in message.map { ("\(field).\(name)", $0) } }
    }
}
