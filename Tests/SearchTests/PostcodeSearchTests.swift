import Configuration
import Contracts
import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting
import Testing

/// A Nominatim-style geocoder served by the test itself, counting the postcodes it is asked for.
struct CountingGeocoder {
    let url: String
    let asked: NIOLockedValueBox<[String]>

    static func with<T>(_ body: (CountingGeocoder) async throws -> T) async throws -> T {
        let asked = NIOLockedValueBox<[String]>([])
        let router = Router()
        router.get("/search") { request, _ in
            let query = request.uri.queryParameters
            let postcode = query["postalcode"].map(String.init) ?? "", country = query["countrycode"].map(String.init) ?? ""
            asked.withLockedValue { $0.append("\(postcode) \(country) \(query["format"] ?? "")") }
            let places = postcode == "3977" && country == "au" ? #"[{"place_id":1,"lat":"-38.1096","lon":"145.2834","name":"3977"}]"# : "[]"
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: places)))
        }
        router.get("/slow/search") { _, _ in
            try await Task.sleep(for: .seconds(5))
            return "[]"
        }
        return try await withServerOnPort0({ onListening in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) }, logger: Logger(label: "geocoder"))
        }) { url in try await body(CountingGeocoder(url: url, asked: asked)) }
    }
}

@Suite("Searching by postcode")
struct PostcodeSearchTests {
    static let casey = [("Casey Fields", -38.1038, 145.3140), ("Akoonah Park", -38.0317, 145.3461), ("Casey Race", -38.1066, 145.2815)]

    static func grounds(_ h: SearchHarness) async throws -> Session {
        let admin = try await h.stack.client(.auth).register(name: "Ada Admin", email: SearchHarness.adminEmail)
        for (name, lat, lng) in casey {
            let venue = CreateVenueRequest(name: name, location: Location(lat: lat, lng: lng), sports: [.cricket])
            _ = try await expect(201, h.catalog.call(CatalogAPI.createVenue, body: venue, token: admin.accessToken))
        }
        return admin
    }

    @Test(
        "a postcode is placed through the stand-in's Nominatim: the same grounds as from its point, an unknown one named",
        arguments: TestStore.all)
    func byPostcode(store: TestStore) async throws {
        let reader = ConfigReader(provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0"]))
        try await withServerOnPort0({ onListening in
            buildProviderStandIns(reader: reader, logger: Logger(label: "stand-in"), onListening: onListening)
        }) { standIn in
            try await SearchHarness.with(store: store, config: ["search.geocoding.url": standIn]) { h in
                let token = try await Self.grounds(h).accessToken
                let cranbourne = try #require(GeocodingStandIn.known.first { $0.postcode == "3977" })
                func names(_ query: QueryItems) async throws -> [String] {
                    try await h.search.value(SearchAPI.venues, query: query + Query.radiusKm(20), token: token).items.map(\.item.name)
                }
                let fromPoint = Query.searchOrigin(.point(Coordinates(lat: cranbourne.lat, lng: cranbourne.lng)))
                #expect(try await eventually { try await names(fromPoint).count == 3 })
                #expect(try await names(Query.searchOrigin(.postcode("3977", country: "AU"))) == names(fromPoint))
                #expect(
                    try await names(Query.searchOrigin(.postcode("3977", country: "au"))) == ["Casey Race", "Casey Fields", "Akoonah Park"])

                let unknown = try await h.search.call(
                    SearchAPI.venues, query: Query.searchOrigin(.postcode("0999", country: "AU")), token: token)
                #expect(unknown.status == 422 && unknown.problem?.code == "UNKNOWN_POSTCODE")
                #expect(unknown.problem?.detail?.contains("0999") == true)
                // The same postcode in another country is another place.
                let elsewhere = try await h.search.call(
                    SearchAPI.venues, query: Query.searchOrigin(.postcode("3977", country: "DE")), token: token)
                #expect(elsewhere.problem?.code == "UNKNOWN_POSTCODE")
                for (raw, field) in [
                    ("lat=-38.1&lng=145.3&postcode=3977&country=AU", "postcode"), ("postcode=3977", "country"), ("country=AU", "postcode"),
                    ("", "lat"), ("postcode=38%2F06&country=AU", "postcode"), ("postcode=3977&country=AUS", "country"),
                ] {
                    let refused = try await h.search.call(SearchAPI.teams, rawQuery: raw, token: token)
                    #expect(refused.status == 422 && refused.problem?.errors?.map(\.field) == [field], "\(raw)")
                }
            }
        }
    }

    @Test("the geocoder is asked once a postcode, known or not; one that is down or slow is a 503, not a hang")
    func cachedAndDown() async throws {
        try await CountingGeocoder.with { geocoder in
            try await SearchHarness.with(config: ["search.geocoding.url": geocoder.url]) { h in
                let token = try await h.player().accessToken
                for country in ["AU", "AU", "au"] {
                    let found = try await h.search.call(SearchAPI.courses, rawQuery: "postcode=3977&country=\(country)", token: token)
                    #expect(found.status == 200)
                }
                for _ in 0..<2 {
                    #expect(
                        try await h.search.call(SearchAPI.games, query: Query.searchOrigin(.postcode("1234", country: "AU")), token: token)
                            .status == 422)
                }
                #expect(geocoder.asked.withLockedValue { $0 } == ["3977 au jsonv2", "1234 au jsonv2"])
            }
            for url in ["http://127.0.0.1:1", geocoder.url + "/slow"] {
                try await SearchHarness.with(config: ["search.geocoding.url": url, "search.geocoding.timeout.ms": "300"]) { h in
                    let token = try await h.player().accessToken
                    let started = ContinuousClock.now
                    let down = try await h.search.call(
                        SearchAPI.venues, query: Query.searchOrigin(.postcode("3977", country: "AU")), token: token)
                    #expect(down.status == 503 && down.problem?.code == "DEPENDENCY_UNAVAILABLE")
                    #expect(ContinuousClock.now - started < .seconds(4))
                    // Searching by a point needs no geocoder.
                    let near = try await h.search.call(
                        SearchAPI.venues, query: Query.searchOrigin(.point(Coordinates(lat: -38.1, lng: 145.3))), token: token)
                    #expect(near.status == 200)
                }
            }
        }
    }
}
