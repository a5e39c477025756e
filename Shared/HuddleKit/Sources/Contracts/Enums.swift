/// The vocabularies several operations share. Raw values are the wire strings.

public enum Sport: String, Codable, Sendable, CaseIterable, WireEnum {
    case soccer, volleyball, softball, basketball, football, discGolf, cricket, tennis, hockey, other
}

public enum Skill: String, Codable, Sendable, CaseIterable, WireEnum {
    case beginner, intermediate, advanced, any
}

public enum Gender: String, Codable, Sendable, CaseIterable, WireEnum {
    case male, female, coed, any
}

public enum AgeGroup: String, Codable, Sendable, CaseIterable, WireEnum {
    case youth, adult, masters, any
}

/// public: anyone joins, listed in search; protected: listed, joining needs approval;
/// private: not listed, invitation only.
public enum Privacy: String, Codable, Sendable, CaseIterable, WireEnum {
    case `public`, protected, `private`
}

/// A role carried in the access token; granted by configuration, never by a public endpoint.
public enum Role: String, Codable, Sendable, CaseIterable, WireEnum {
    case administrator
}
