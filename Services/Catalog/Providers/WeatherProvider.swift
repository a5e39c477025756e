import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceFeatures

/// Current weather from an Open-Meteo style provider (`/v1/forecast?latitude=&longitude=&current_weather=true`),
/// cached per course so a round of phones asking at once costs one provider call.
/// A provider that is down or slow becomes a 503 within `timeout`, never a 500.
actor WeatherProvider {
    struct Settings: Sendable {
        var baseURL: String
        var timeout: Duration
        var cacheLifetime: Duration
    }

    private let settings: Settings
    private let httpClient: HTTPClient
    private let logger: Logger
    /// The module's clock, which dates what the provider answered.
    private let now: @Sendable () -> Date
    private var cache: [CourseID: (weather: Weather, expires: ContinuousClock.Instant)] = [:]

    init(settings: Settings, httpClient: HTTPClient, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.settings = settings
        self.now = now
        self.httpClient = httpClient
        self.logger = logger
    }

    func current(for course: Course) async throws -> Weather {
        if let cached = cache[course.id], cached.expires > .now { return cached.weather }
        let weather = try await fetch(course)
        cache[course.id] = (weather, .now + settings.cacheLifetime)
        return weather
    }

    private func fetch(_ course: Course) async throws -> Weather {
        let url = "\(settings.baseURL)/v1/forecast?latitude=\(course.location.lat)&longitude=\(course.location.lng)&current_weather=true"
        do {
            let response = try await httpClient.callProvider("weather", "forecast", .toProvider(url), timeout: .init(settings.timeout))
            let body = try await response.body.collect(upTo: 1024 * 1024)
            guard response.status == .ok else { throw ProviderAnswered(status: Int(response.status.code)) }
            let answer = try JSONDecoder().decode(OpenMeteoAnswer.self, from: Data(buffer: body))
            let current = answer.currentWeather
            return Weather(
                courseId: course.id, temperatureCelsius: current.temperature, windSpeedKmh: current.windspeed,
                windDirectionDegrees: current.winddirection, weatherCode: current.weathercode, observedAt: current.time,
                fetchedAt: now())
        } catch {
            logger.warning("weather provider failed for course \(course.id): \(error)")
            throw CatalogError.weatherUnavailable
        }
    }

    private struct ProviderAnswered: Error {
        let status: Int
    }

    /// The part of Open-Meteo's answer we use; names are the provider's.
    private struct OpenMeteoAnswer: Decodable {
        struct Current: Decodable {
            let temperature: Double
            let windspeed: Double
            let winddirection: Double
            let weathercode: Int
            let time: String?
        }
        let currentWeather: Current

        enum CodingKeys: String, CodingKey { case currentWeather = "current_weather" }
    }
}
