import Configuration
import Foundation
import ServiceHTTP

/// Search's configuration, read once at start.
struct SearchSettings: Sendable {
    var geocoding: PostcodeGeocoder.Settings

    /// Keys: `search.geocoding.url` (a Nominatim-style geocoder, default `https://nominatim.openstreetmap.org`),
    /// `search.geocoding.timeout.ms` (3000), `search.geocoding.cache.ms` (a day), `search.geocoding.email`
    /// (a contact address sent with each request, as OpenStreetMap's asks of heavy users; none when absent).
    init(reader: ConfigReader) {
        geocoding = PostcodeGeocoder.Settings(
            baseURL: reader.text("search.geocoding.url", default: "https://nominatim.openstreetmap.org"),
            timeout: reader.milliseconds("search.geocoding.timeout.ms", default: 3000),
            cacheLifetime: reader.milliseconds("search.geocoding.cache.ms", default: 86_400_000),
            contactEmail: reader.text("search.geocoding.email"))
    }
}
