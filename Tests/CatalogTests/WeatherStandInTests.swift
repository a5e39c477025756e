import Configuration
import Contracts
import Foundation
import Logging
import NIOHTTP1
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting
import Testing

/// The providers' stand-in speaks Open-Meteo, so catalog's real adapter answers weather offline.
@Suite("Weather from the stand-in")
struct WeatherStandInTests {
    @Test("a course's weather comes through the real adapter from the stand-in, the same for the same place")
    func weatherFromStandIn() async throws {
        let reader = ConfigReader(provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0"]))
        try await withServerOnPort0({ onListening in
            buildProviderStandIns(reader: reader, logger: Logger(label: "stand-in"), onListening: onListening)
        }) { standIn in
            try await CatalogHarness.with(config: ["catalog.weather.url": standIn, "catalog.weather.cache.ms": "0"]) { h in
                let course = try await h.course()
                let first = try await h.catalog.call(CatalogAPI.weather, course.id)
                #expect(first.status == 200)
                let weather = try first.decode(Weather.self)
                #expect(weather.courseId == course.id)
                #expect((-60...60).contains(weather.temperatureCelsius))
                #expect((0..<360).contains(weather.windDirectionDegrees))
                let again = try await h.catalog.call(CatalogAPI.weather, course.id).decode(Weather.self)
                #expect(again.temperatureCelsius == weather.temperatureCelsius && again.weatherCode == weather.weatherCode)
            }
            // Open-Meteo's refusal for coordinates off the globe.
            let refused = try await TestClient(baseURL: standIn).raw(.GET, "/v1/forecast?latitude=91&longitude=0&current_weather=true")
            #expect(refused.status == 400)
            #expect(refused.text.contains("\"error\":true"))
        }
    }
}
