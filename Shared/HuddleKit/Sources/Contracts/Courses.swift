public import Foundation

/// One disc golf hole: where to throw from and where the basket is, when someone has surveyed them.
public struct Hole: Codable, Equatable, Sendable {
    /// Courses have 1 to 36 holes, numbered from 1.
    public static let maxNumber = 36

    public var number: Int
    public var par: Int
    /// Absent until surveyed: the hole can be played and scored, but not navigated to.
    public var tee: Coordinates?
    public var basket: Coordinates?

    /// Whether navigation can lead to this hole: both its tee and its basket are known.
    public var hasPositions: Bool { tee != nil && basket != nil }

    public init(number: Int, par: Int, tee: Coordinates? = nil, basket: Coordinates? = nil) {
        self.number = number
        self.par = par
        self.tee = tee
        self.basket = basket
    }
}

/// A disc golf course. `holeCount`, `par` and `navigationAvailable` are derived from `holes`.
public struct Course: Codable, Equatable, Sendable {
    public var id: CourseID
    public var name: String
    public var location: Location
    public var website: String?
    public var holeCount: Int
    public var par: Int
    /// Whether every hole has its tee and basket, so navigation leads around the whole course.
    public var navigationAvailable: Bool
    public var holes: [Hole]

    public init(id: CourseID, name: String, location: Location, website: String?, holes: [Hole]) {
        self.id = id
        self.name = name
        self.location = location
        self.website = website
        self.holes = holes.sorted { $0.number < $1.number }
        self.holeCount = holes.count
        self.par = holes.reduce(0) { $0 + $1.par }
        self.navigationAvailable = !holes.isEmpty && holes.allSatisfy(\.hasPositions)
    }

    private enum CodingKeys: String, CodingKey { case id, name, location, website, holeCount, par, navigationAvailable, holes }

    // The derived fields are worked out again, so a course stored before one of them existed reads whole.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(CourseID.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
            location: try container.decode(Location.self, forKey: .location),
            website: try container.decodeIfPresent(String.self, forKey: .website), holes: try container.decode([Hole].self, forKey: .holes))
    }
}

/// `PATCH /v1/courses/{id}`: absent fields stay as they are.
public struct UpdateCourseRequest: Codable, Equatable, Sendable {
    public var name: String?
    public var location: Location?
    public var website: String?

    public init(name: String? = nil, location: Location? = nil, website: String? = nil) {
        self.name = name
        self.location = location
        self.website = website
    }
}

public struct CreateCourseRequest: Codable, Equatable, Sendable {
    public var name: String
    public var location: Location
    public var website: String?
    public var holes: [Hole]

    public init(name: String, location: Location, website: String? = nil, holes: [Hole]) {
        self.name = name
        self.location = location
        self.website = website
        self.holes = holes
    }
}

/// `PUT /v1/courses/{id}/holes/{number}`: without `tee` and `basket` until they are surveyed.
public struct UpdateHoleRequest: Codable, Equatable, Sendable {
    public var par: Int
    public var tee: Coordinates?
    public var basket: Coordinates?

    public init(par: Int, tee: Coordinates? = nil, basket: Coordinates? = nil) {
        self.par = par
        self.tee = tee
        self.basket = basket
    }
}

/// Distance and initial compass bearing (0 = north, clockwise) from the caller to a point.
public struct Heading: Codable, Equatable, Sendable {
    public var distanceMeters: Int
    public var bearingDegrees: Double

    public init(distanceMeters: Int, bearingDegrees: Double) {
        self.distanceMeters = distanceMeters
        self.bearingDegrees = bearingDegrees
    }
}

public struct NextTee: Codable, Equatable, Sendable {
    public var hole: Int
    public var distanceMeters: Int
    public var bearingDegrees: Double

    public init(hole: Int, distanceMeters: Int, bearingDegrees: Double) {
        self.hole = hole
        self.distanceMeters = distanceMeters
        self.bearingDegrees = bearingDegrees
    }
}

/// `GET /v1/courses/{id}/navigation`.
public struct Navigation: Codable, Equatable, Sendable {
    public var hole: Int
    public var tee: Heading
    public var basket: Heading
    public var nextTee: NextTee?

    public init(hole: Int, tee: Heading, basket: Heading, nextTee: NextTee?) {
        self.hole = hole
        self.tee = tee
        self.basket = basket
        self.nextTee = nextTee
    }
}

/// `GET /v1/courses/{id}/weather`: current conditions at the course.
public struct Weather: Codable, Equatable, Sendable {
    public var courseId: CourseID
    public var temperatureCelsius: Double
    public var windSpeedKmh: Double
    public var windDirectionDegrees: Double
    /// WMO weather interpretation code.
    public var weatherCode: Int
    /// When the provider observed it, as the provider said.
    public var observedAt: String?
    /// When Huddle fetched it; answers are cached for a few minutes.
    public var fetchedAt: Date

    public init(
        courseId: CourseID, temperatureCelsius: Double, windSpeedKmh: Double, windDirectionDegrees: Double, weatherCode: Int,
        observedAt: String?, fetchedAt: Date
    ) {
        self.courseId = courseId
        self.temperatureCelsius = temperatureCelsius
        self.windSpeedKmh = windSpeedKmh
        self.windDirectionDegrees = windDirectionDegrees
        self.weatherCode = weatherCode
        self.observedAt = observedAt
        self.fetchedAt = fetchedAt
    }
}

// MARK: Venues

/// A ground or park where games are played.
public struct Venue: Codable, Equatable, Sendable {
    public var id: VenueID
    public var name: String
    public var location: Location
    public var sports: [Sport]
    public var website: String?
    /// What is there: pitches, nets, lights, parking.
    public var description: String?
    /// The postal code of its address.
    public var postcode: String?

    public init(
        id: VenueID, name: String, location: Location, sports: [Sport], website: String?, description: String? = nil,
        postcode: String? = nil
    ) {
        self.id = id
        self.description = description
        self.postcode = postcode
        self.name = name
        self.location = location
        self.sports = sports
        self.website = website
    }
}

public struct CreateVenueRequest: Codable, Equatable, Sendable {
    public var name: String
    public var location: Location
    public var sports: [Sport]
    public var website: String?
    public var description: String?
    public var postcode: String?

    public init(
        name: String, location: Location, sports: [Sport], website: String? = nil, description: String? = nil, postcode: String? = nil
    ) {
        self.name = name
        self.description = description
        self.postcode = postcode
        self.location = location
        self.sports = sports
        self.website = website
    }
}

// MARK: News

public struct NewsArticle: Codable, Equatable, Sendable {
    public var id: ArticleID
    public var title: String
    public var summary: String
    public var url: String
    public var imageUrl: String?
    public var source: String
    public var sport: Sport
    public var publishedAt: Date
    /// Whether the caller saved it; absent for anonymous callers.
    public var bookmarked: Bool?
    /// Who it is for (ISO 3166-1 alpha-2, lower case) and what it is written in (ISO 639-1), when its
    /// feed or publisher said.
    public var country: String?
    public var language: String?

    public init(
        id: ArticleID, title: String, summary: String, url: String, imageUrl: String?, source: String, sport: Sport,
        publishedAt: Date, bookmarked: Bool? = nil, country: String? = nil, language: String? = nil
    ) {
        self.country = country
        self.language = language
        self.id = id
        self.title = title
        self.summary = summary
        self.url = url
        self.imageUrl = imageUrl
        self.source = source
        self.sport = sport
        self.publishedAt = publishedAt
        self.bookmarked = bookmarked
    }
}

/// Articles to publish, an administrator's (`POST /v1/news`) or a news feed's, deduplicated by `url`.
public struct NewsIngestRequest: Codable, Equatable, Sendable {
    public struct Article: Codable, Equatable, Sendable {
        public var title: String
        public var summary: String
        public var url: String
        public var imageUrl: String?
        public var source: String
        public var sport: Sport
        public var publishedAt: Date
        public var country: String?
        public var language: String?

        public init(
            title: String, summary: String, url: String, imageUrl: String?, source: String, sport: Sport, publishedAt: Date,
            country: String? = nil, language: String? = nil
        ) {
            self.country = country
            self.language = language
            self.title = title
            self.summary = summary
            self.url = url
            self.imageUrl = imageUrl
            self.source = source
            self.sport = sport
            self.publishedAt = publishedAt
        }
    }

    public var articles: [Article]

    public init(articles: [Article]) { self.articles = articles }
}

public struct NewsIngestResult: Codable, Equatable, Sendable {
    public var inserted: Int
    public var duplicates: Int

    public init(inserted: Int, duplicates: Int) {
        self.inserted = inserted
        self.duplicates = duplicates
    }
}
