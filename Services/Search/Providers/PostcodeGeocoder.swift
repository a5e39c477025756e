import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceFeatures
import ServiceHTTP

/// Places a postcode through a Nominatim-style geocoder
/// (`/search?postalcode=&countrycode=&format=jsonv2&limit=1`), for searches by postcode. Answers,
/// known or not, are cached: a postcode's place does not move, and OpenStreetMap's public
/// Nominatim allows one request a second. A provider that is down or slow becomes a 503 within
/// `timeout`; one that knows no such postcode, 422 `UNKNOWN_POSTCODE`.
actor PostcodeGeocoder {
    struct Settings: Sendable {
        var baseURL: String
        var timeout: Duration
        var cacheLifetime: Duration
        /// Nominatim's usage policy asks heavy users for a contact address (`email=`).
        var contactEmail: String?
        /// Places kept at most; the oldest half goes when it is full.
        var cacheSize = 10_000
    }

    private let settings: Settings
    private let httpClient: HTTPClient
    private let logger: Logger
    private var cache: [String: (place: Coordinates?, expires: ContinuousClock.Instant)] = [:]

    init(settings: Settings, httpClient: HTTPClient, logger: Logger) {
        self.settings = settings
        self.httpClient = httpClient
        self.logger = logger
    }

    /// Where `origin` is: the point itself, or the place of the postcode.
    func place(of origin: SearchOrigin) async throws -> Coordinates {
        switch origin {
        case .point(let point): return point
        case .postcode(let postcode, let country):
            return try await place(ofPostcode: Postcode.normalized(postcode), in: country.lowercased())
        }
    }

    private func place(ofPostcode postcode: String, in country: String) async throws -> Coordinates {
        let key = "\(country)|\(postcode)"
        let place: Coordinates?
        if let cached = cache[key], cached.expires > .now {
            place = cached.place
        } else {
            place = try await fetch(postcode, in: country)
            remember(place, as: key)
        }
        guard let place else { throw SearchError.unknownPostcode(postcode, country: country.uppercased()) }
        return place
    }

    private func remember(_ place: Coordinates?, as key: String) {
        if cache.count >= settings.cacheSize {
            let oldest = cache.sorted { $0.value.expires < $1.value.expires }.prefix(cache.count / 2).map(\.key)
            for key in oldest { cache[key] = nil }
        }
        cache[key] = (place, .now + settings.cacheLifetime)
    }

    private func fetch(_ postcode: String, in country: String) async throws -> Coordinates? {
        var components = URLComponents(string: settings.baseURL + "/search")
        components?.queryItems =
            [
                URLQueryItem(name: "postalcode", value: postcode), URLQueryItem(name: "countrycode", value: country),
                URLQueryItem(name: "format", value: "jsonv2"), URLQueryItem(name: "limit", value: "1"),
            ] + (settings.contactEmail.map { [URLQueryItem(name: "email", value: $0)] } ?? [])
        do {
            guard let url = components?.string else { throw ProviderAnswered(status: 0) }
            let response = try await httpClient.callProvider("geocoding", "postcode", .toProvider(url), timeout: .init(settings.timeout))
            let body = try await response.body.collect(upTo: 1024 * 1024)
            guard response.status == .ok else { throw ProviderAnswered(status: Int(response.status.code)) }
            let places = try JSONDecoder().decode([NominatimPlace].self, from: Data(buffer: body))
            guard let first = places.first else { return nil }
            guard let lat = Double(first.lat), let lng = Double(first.lon), (-90...90).contains(lat), (-180...180).contains(lng) else {
                throw ProviderAnswered(status: 200)
            }
            return Coordinates(lat: lat, lng: lng)
        } catch {
            logger.warning("geocoding provider failed for postcode \(postcode) in \(country): \(error)")
            throw SearchError.geocodingUnavailable
        }
    }

    private struct ProviderAnswered: Error {
        let status: Int
    }

    /// The part of a Nominatim result we use; it writes coordinates as strings.
    private struct NominatimPlace: Decodable {
        let lat: String
        let lon: String
    }
}
