import Contracts
import Foundation
import Logging
import NIOHTTP1
import ServerContracts
import ServiceClients

/// Demo catalog content, created through catalog's public API on the first start: disc golf parks in Estonia, grounds around the City of Casey (Victoria,
/// Australia), leagues and teams in Tallinn, Tartu and Casey, and some news.
enum DemoCatalog {
    struct Park {
        let name: String
        let location: Location
        let website: String?
        /// Par of each hole, in order.
        let pars: [Int]
    }

    /// Real parks at their real places. Hole positions are laid out around each park's location for
    /// the demo (a loop of throws of realistic length), not surveyed.
    static let parks = [
        Park(
            name: "Rakke DiscGolfPark", location: Location(lat: 58.98068, lng: 26.25523, address: "Rakke, Lääne-Viru County"),
            website: "https://discgolfpark.ee", pars: Array(repeating: 3, count: 9)),
        Park(
            name: "Tähtvere DiscGolfPark", location: Location(lat: 58.38870, lng: 26.69940, address: "Tähtvere park, Tartu"),
            website: "https://discgolfpark.ee", pars: [3, 3, 4, 3, 3, 3, 4, 3, 3, 3, 3, 4]),
        Park(
            name: "Pirita DiscGolfPark", location: Location(lat: 59.46500, lng: 24.84200, address: "Pirita, Tallinn"),
            website: "https://discgolfpark.ee", pars: [3, 3, 3, 4, 3, 3, 3, 3, 4, 3, 3, 3, 3, 4, 3, 3, 3, 3]),
        Park(
            name: "Kõrvemaa DiscGolfPark", location: Location(lat: 59.33900, lng: 25.45600, address: "Kõrvemaa, Harju County"),
            website: "https://korvemaa.ee", pars: [3, 4, 3, 3, 5, 3, 3, 4, 3, 3, 3, 4, 3, 3, 4, 3, 3, 4]),
        Park(
            name: "Tehvandi DiscGolfPark", location: Location(lat: 58.04890, lng: 26.47880, address: "Tehvandi, Otepää"),
            website: "https://tehvandi.ee", pars: [3, 3, 3, 3, 4, 3, 3, 3, 3]),
    ]

    static let venues = [
        CreateVenueRequest(
            name: "Casey Fields",
            location: Location(lat: -38.1038, lng: 145.3140, address: "160 Berwick-Cranbourne Rd, Cranbourne East VIC"),
            sports: [.soccer, .cricket, .other]),
        CreateVenueRequest(
            name: "Casey Race (Leisure Centre)",
            location: Location(lat: -38.1066, lng: 145.2815, address: "65 Berwick-Cranbourne Rd, Cranbourne East VIC"),
            sports: [.basketball, .volleyball], description: "Indoor courts for basketball and volleyball, open every day",
            postcode: "3977"),
        CreateVenueRequest(
            name: "Akoonah Park", location: Location(lat: -38.0317, lng: 145.3461, address: "Princes Hwy, Berwick VIC"),
            sports: [.cricket, .soccer]),
        CreateVenueRequest(
            name: "Sweeney Reserve", location: Location(lat: -38.0218, lng: 145.2947, address: "Narre Warren VIC"),
            sports: [.soccer, .softball]),
        CreateVenueRequest(
            name: "Max Pawsey Reserve", location: Location(lat: -38.0260, lng: 145.3009, address: "Narre Warren VIC"),
            sports: [.cricket, .soccer]),
        CreateVenueRequest(
            name: "Hampton Park Reserve", location: Location(lat: -38.0371, lng: 145.2594, address: "Hampton Park VIC"),
            sports: [.soccer, .tennis]),
    ]

    static let tallinn = Location(lat: 59.4370, lng: 24.7536, address: "Tallinn")
    static let tartu = Location(lat: 58.3780, lng: 26.7290, address: "Tartu")
    static let casey = Location(lat: -38.0690, lng: 145.3030, address: "Narre Warren, City of Casey VIC")

    /// Whether everything was seeded (or was there already).
    static func seed(catalogURL: String, sessions: [String: Session], logger: Logger) async -> Bool {
        let catalog = APIClient(baseURL: catalogURL)
        guard let admin = sessions[DemoData.administrator.email]?.accessToken, let chloe = sessions[DemoData.chloe.email]?.accessToken,
            let bruno = sessions[DemoData.bruno.email]?.accessToken, let dmitri = sessions[DemoData.dmitri.email]?.accessToken
        else { return false }
        do {
            try await seedPlaces(catalog, admin: admin)
            _ = try await catalog.value(CatalogAPI.publishNews, body: NewsIngestRequest(articles: news), token: admin)
            try await seedTeams(catalog, chloe: chloe, bruno: bruno, dmitri: dmitri)
            return true
        } catch {
            logger.warning("demo catalog data incomplete: \(error)")
            return false
        }
    }

    private static func seedPlaces(_ catalog: APIClient, admin: String) async throws {
        let existing = try await catalog.value(CatalogAPI.courses, query: Query.limit(1))
        guard existing.items.isEmpty else { return }
        for park in parks {
            let request = CreateCourseRequest(name: park.name, location: park.location, website: park.website, holes: layout(park))
            _ = try await catalog.value(CatalogAPI.createCourse, body: request, token: admin)
        }
        for venue in venues { _ = try await catalog.value(CatalogAPI.createVenue, body: venue, token: admin) }
    }

    private static func seedTeams(_ catalog: APIClient, chloe: String, bruno: String, dmitri: String) async throws {
        let existing = try await catalog.value(CatalogAPI.teams, query: CatalogAPI.teamMember(.me) + Query.limit(1), token: chloe)
        guard existing.items.isEmpty else { return }
        func team(_ token: String, _ name: String, _ sport: Sport, _ privacy: Privacy, _ location: Location, skill: Skill = .intermediate)
            async throws -> Team
        {
            let request = CreateTeamRequest(
                name: name, sport: sport, privacy: privacy, location: location, ageGroup: .adult, gender: .coed, skill: skill)
            return try await catalog.value(CatalogAPI.createTeam, body: request, token: token)
        }
        func league(_ token: String, _ name: String, _ sport: Sport, _ privacy: Privacy, _ location: Location, teams: [Team]) async throws {
            let request = CreateLeagueRequest(
                name: name, sport: sport, skill: .any, ageGroup: .adult, gender: .coed, privacy: privacy, location: location)
            let created = try await DemoPurchases.afterUnlock {
                try await catalog.value(CatalogAPI.createLeague, body: request, token: token)
            }
            for team in teams {
                _ = try await catalog.value(CatalogAPI.addLeagueTeam, created.id, body: AddLeagueTeamRequest(teamId: team.id), token: token)
            }
        }
        let spikers = try await team(chloe, "Kalev Spikers", .volleyball, .public, tallinn)
        // Bruno plays for the Kalev Spikers (joining first, so games hears of it before their game is
        // planned): the game asks him for an answer, their chat reaches his phone. Where the join gate
        // is on, he bought no membership: refused.
        _ = try await catalog.call(CatalogAPI.joinTeam, spikers.id, token: bruno)
        let harbour = try await team(bruno, "Harbour Volley", .volleyball, .protected, tallinn)
        _ = try await team(bruno, "Old Town Kickers", .soccer, .protected, tallinn)
        _ = try await team(dmitri, "Emajõe Disc Club", .discGolf, .public, tartu, skill: .any)
        _ = try await team(chloe, "Tartu Hoopers", .basketball, .private, tartu, skill: .advanced)
        let casual = try await team(chloe, "Casey Casuals", .volleyball, .public, casey, skill: .beginner)
        // Short of players: it shows in a search for teams looking for them.
        _ = try await catalog.value(CatalogAPI.updateTeam, casual.id, body: UpdateTeamRequest(recruiting: true), token: chloe)
        let strikers = try await team(bruno, "Berwick Strikers", .volleyball, .protected, casey)
        _ = try await team(dmitri, "Cranbourne Cricketers", .cricket, .public, casey)
        try await league(chloe, "Tallinn Beach Volley League", .volleyball, .public, tallinn, teams: [spikers])
        try await league(chloe, "Casey Social Volleyball", .volleyball, .public, casey, teams: [casual])
        try await league(bruno, "Berwick Winter Cup", .volleyball, .private, casey, teams: [strikers])
        // Chloe asks to join Bruno's protected team: Bruno finds a request to approve.
        _ = try await DemoPurchases.afterUnlock { try await catalog.value(CatalogAPI.joinTeam, harbour.id, token: chloe) }
        // Refused where the join gate is on: Dmitri bought nothing.
        _ = try await catalog.call(CatalogAPI.joinTeam, spikers.id, token: dmitri)
    }

    /// A loop of holes: each tee a few metres past the previous basket, each throw 60–150 m long
    /// depending on par, turning a little each hole so the course comes back near its start.
    static func layout(_ park: Park) -> [Hole] {
        let metresPerDegreeLat = 111_320.0
        let metresPerDegreeLng = 111_320.0 * cos(park.location.lat * .pi / 180)
        func move(_ point: Coordinates, metres: Double, bearing: Double) -> Coordinates {
            let radians = bearing * .pi / 180
            func rounded(_ degrees: Double) -> Double { (degrees * 1_000_000).rounded() / 1_000_000 }
            return Coordinates(
                lat: rounded(point.lat + metres * cos(radians) / metresPerDegreeLat),
                lng: rounded(point.lng + metres * sin(radians) / metresPerDegreeLng))
        }
        var tee = park.location.coordinates
        var bearing = 20.0
        return park.pars.enumerated().map { index, par in
            let lengths: [Int: Double] = [2: 50, 3: 75, 4: 130, 5: 170]
            let length = lengths[par] ?? 80
            let basket = move(tee, metres: length + Double(index % 3) * 10, bearing: bearing)
            defer {
                bearing += 360 / Double(park.pars.count)
                tee = move(basket, metres: 15, bearing: bearing)
            }
            return Hole(number: index + 1, par: par, tee: tee, basket: basket)
        }
    }

    static let news: [NewsIngestRequest.Article] = [
        article(
            "Levadia and Flora draw in the Tallinn derby", "Both sides scored after the break in front of a full Lilleküla.", .soccer,
            "2026-11-21T18:30:00Z", "tallinn-derby"),
        article(
            "Estonian disc golf season closes at Rakke", "Over a hundred players finished the last tour stop of the year in the snow.",
            .discGolf, "2026-11-20T15:00:00Z", "rakke-season-close"),
        article(
            "Casey Fields gets new floodlights", "Night games start on two more pitches from December.", .soccer, "2026-11-19T09:00:00Z",
            "casey-floodlights"),
        article(
            "Beach volley moves indoors for winter", "Tallinn's sand halls open their winter leagues next week.", .volleyball,
            "2026-11-18T12:00:00Z", "volley-indoors"),
        article(
            "Tartu hosts the national basketball cup final", "The final will be played at the University of Tartu sports hall.",
            .basketball, "2026-11-17T17:45:00Z", "tartu-cup-final"),
        // iSport's readers ask for Italian headlines (`GET /v1/news?country=it&language=it`).
        article(
            "Il derby di Milano finisce in parità", "Un gol per parte a San Siro, con il pareggio nei minuti di recupero.", .soccer,
            "2026-11-22T20:45:00Z", "derby-milano", country: "it", language: "it"),
        article(
            "Levadia võitis Tallinna derbi", "Otsustav värav tuli viimastel minutitel.", .soccer, "2026-11-22T19:00:00Z",
            "levadia-derby-et", country: "ee", language: "et"),
    ]

    private static func article(
        _ title: String, _ summary: String, _ sport: Sport, _ published: String, _ slug: String, country: String? = nil,
        language: String? = nil
    ) -> NewsIngestRequest.Article {
        NewsIngestRequest.Article(
            title: title, summary: summary, url: "https://news.huddle.dev/demo/\(slug)", imageUrl: nil, source: "Huddle Demo Wire",
            sport: sport, publishedAt: ISO8601DateFormatter().date(from: published) ?? Date(timeIntervalSince1970: 0), country: country,
            language: language)
    }
}
