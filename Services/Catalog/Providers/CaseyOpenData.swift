import AsyncHTTPClient
import Contracts
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceFeatures

/// The City of Casey's sports grounds from its open-data portal, an Opendatasoft Explore API v2.1:
/// `GET /api/explore/v2.1/catalog/datasets/{dataset}/records?limit=100&offset=…`, answered
/// `{total_count, results: [record]}`. A record: `reserve_id`, `reserve_name`, `street_address`, `suburb`,
/// `postcode`, `sports` ("Cricket; Football (Soccer)"), `facilities`, `website`, `geo_point_2d {lon, lat}`.
struct CaseyOpenData: Sendable {
    static let defaultURL = "https://data.casey.vic.gov.au"
    static let defaultDataset = "sports-grounds"
    /// The most records the API gives a call; it gives none past an offset of 10,000.
    static let pageSize = 100
    static let maxRecords = 10_000

    let baseURL: String
    let dataset: String
    let http: HTTPClient

    /// Every record of the dataset, a page at a time, as venues; records that cannot be one are counted.
    func grounds() async throws -> (venues: [ImportedVenue], skipped: Int) {
        var venues: [ImportedVenue] = [], skipped = 0, offset = 0
        while offset < Self.maxRecords {
            let url = "\(baseURL)/api/explore/v2.1/catalog/datasets/\(dataset)/records?limit=\(Self.pageSize)&offset=\(offset)"
            let response = try await http.callProvider("opendata", "records", .toProvider(url), timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
            guard response.status == .ok else { throw Refused(status: Int(response.status.code), url: url) }
            let page = try Self.page(Data(buffer: body))
            venues += page.venues
            skipped += page.skipped
            offset += page.read
            guard page.read > 0, offset < page.total else { break }
        }
        return (venues, skipped)
    }

    struct Refused: Error, CustomStringConvertible {
        let status: Int
        let url: String
        var description: String { "\(url) answered \(status)" }
    }

    // MARK: Reading a page (pure)

    private struct Answer: Decodable {
        struct Record: Decodable {
            struct Point: Decodable {
                let lon: Double
                let lat: Double
            }
            let reserveID: String?
            let reserveName: String?
            let streetAddress: String?
            let suburb: String?
            let postcode: String?
            let sports: String?
            let facilities: String?
            let website: String?
            let geoPoint: Point?

            enum CodingKeys: String, CodingKey {
                case reserveID = "reserve_id", reserveName = "reserve_name", streetAddress = "street_address", suburb, postcode, sports
                case facilities, website, geoPoint = "geo_point_2d"
            }
        }
        let totalCount: Int
        let results: [Record]

        enum CodingKeys: String, CodingKey { case totalCount = "total_count", results }
    }

    /// One answer's venues, how many records it held and how many could not be venues.
    static func page(_ data: Data) throws -> (total: Int, read: Int, venues: [ImportedVenue], skipped: Int) {
        let answer = try JSONDecoder().decode(Answer.self, from: data)
        let venues = answer.results.compactMap(venue)
        return (answer.totalCount, answer.results.count, venues, answer.results.count - venues.count)
    }

    /// A record with an id, a name Huddle can hold, a place on the map and at least one sport.
    private static func venue(_ record: Answer.Record) -> ImportedVenue? {
        guard let id = record.reserveID?.trimmingBlanks, !id.isEmpty,
            let name = record.reserveName.flatMap(TextRule.catalogName.conforming), let point = record.geoPoint,
            (-90...90).contains(point.lat), (-180...180).contains(point.lon)
        else { return nil }
        let sports = sports(record.sports ?? "")
        guard !sports.isEmpty else { return nil }
        let postcode = record.postcode?.trimmingBlanks.uppercased()
        let address = [record.streetAddress, record.suburb.map { ([$0, "VIC", postcode].compactMap { $0 }).joined(separator: " ") }]
            .compactMap { $0?.trimmingBlanks }.filter { !$0.isEmpty }.joined(separator: ", ")
        return ImportedVenue(
            source: "casey:\(id)", name: name,
            location: Location(lat: point.lat, lng: point.lon, address: address.isEmpty ? nil : address), sports: sports,
            description: record.facilities.flatMap(CreateVenueRequest.description.conforming),
            postcode: postcode.flatMap { $0.isEmpty ? nil : $0 },
            website: record.website.flatMap { WebAddressRule.website.problem($0) == nil ? $0 : nil })
    }

    /// The sports a record names ("Cricket; Football (Soccer)"), each once; names Huddle has no sport
    /// for are `other`.
    static func sports(_ text: String) -> [Sport] {
        let names = text.split(whereSeparator: { $0 == ";" || $0 == "," }).map { String($0).trimmingBlanks.lowercased() }
            .filter { !$0.isEmpty }
        return names.map { name -> Sport in
            if name.contains("soccer") { return .soccer }
            if name.contains("australian") || name.contains("afl") { return .football }
            return Self.named[name] ?? .other
        }.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    private static let named: [String: Sport] = [
        "cricket": .cricket, "football": .soccer, "netball": .other, "basketball": .basketball, "tennis": .tennis,
        "hockey": .hockey, "softball": .softball, "baseball": .softball, "volleyball": .volleyball, "disc golf": .discGolf,
    ]
}
