/// What search answers: an item's public fields plus how far it is from the searcher. Protected
/// games and teams come without an exact `location` (the rule of `Privacy.revealsExactLocation`
/// for someone who is not a participant); private ones never appear.
public struct Nearby<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public var item: Item
    public var distanceMeters: Int

    public init(item: Item, distanceMeters: Int) {
        self.item = item
        self.distanceMeters = distanceMeters
    }

    enum CodingKeys: String, CodingKey { case distanceMeters }

    /// Flat on the wire: the item's own fields with `distanceMeters` beside them.
    public init(from decoder: any Decoder) throws {
        item = try Item(from: decoder)
        distanceMeters = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .distanceMeters)
    }

    public func encode(to encoder: any Encoder) throws {
        try item.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(distanceMeters, forKey: .distanceMeters)
    }
}

/// A team as search lists it.
public struct TeamResult: Codable, Sendable, Equatable {
    public var id: TeamID
    public var name: String
    public var sport: Sport
    public var privacy: Privacy
    public var ageGroup: AgeGroup
    public var gender: Gender
    public var skill: Skill
    public var memberCount: Int
    /// Absent for protected teams.
    public var location: Location?
    /// True while the team is looking for players; absent otherwise.
    public var recruiting: Bool?

    public init(
        id: TeamID, name: String, sport: Sport, privacy: Privacy, ageGroup: AgeGroup, gender: Gender, skill: Skill, memberCount: Int,
        location: Location?
    ) {
        self.id = id
        self.name = name
        self.sport = sport
        self.privacy = privacy
        self.ageGroup = ageGroup
        self.gender = gender
        self.skill = skill
        self.memberCount = memberCount
        self.location = location
    }
}

/// A player found by name.
public struct PlayerResult: Codable, Sendable, Equatable {
    public var id: UserID
    public var name: String

    public init(id: UserID, name: String) {
        self.id = id
        self.name = name
    }
}

/// Where a search looks from: a point, or a postal code in a country (ISO 3166-1 alpha-2), which the
/// server places through a geocoding provider.
public enum SearchOrigin: Sendable, Equatable {
    case point(Coordinates)
    case postcode(String, country: String)
}

/// Postal codes as people write them, from Tallinn (10115) and Casey (3977) to London (SW1A 1AA):
/// letters, digits, spaces and dashes.
public enum Postcode {
    public static let schema = JSONSchema.text(2...12).pattern(JSONSchema.whole("[A-Za-z0-9][A-Za-z0-9 -]*[A-Za-z0-9]"))
    /// An ISO 3166-1 alpha-2 country code, either case.
    public static let countrySchema = JSONSchema.text(2...2).pattern(JSONSchema.whole("[A-Za-z]{2}"))

    /// The form a postcode is compared in: upper case, single spaces.
    public static func normalized(_ postcode: String) -> String {
        postcode.uppercased().split(separator: " ").joined(separator: " ")
    }
}
