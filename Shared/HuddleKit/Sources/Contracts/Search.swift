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
