import Foundation
import HuddleEffects
import Hummingbird

/// Open-Meteo's current-weather call, answered from the coordinates alone so the same place always
/// gets the same weather: `GET /v1/forecast?latitude=&longitude=&current_weather=true` →
/// `{latitude, longitude, current_weather: {time, interval, temperature, windspeed, winddirection,
/// is_day, weathercode}}`, and Open-Meteo's `{error: true, reason}` with 400 for bad coordinates.
/// The embedded stack points catalog here, so weather answers without the internet.
enum WeatherStandIn {
    static func add(to router: Router<BasicRequestContext>) {
        router.get("v1/forecast") { request, _ -> Response in
            let query = request.uri.queryParameters
            guard let latitude = query["latitude"].flatMap({ Double(String($0)) }), (-90...90).contains(latitude),
                let longitude = query["longitude"].flatMap({ Double(String($0)) }), (-180...180).contains(longitude)
            else {
                return try Response.json(
                    Refusal(error: true, reason: "Latitude must be in range of -90 to 90°, longitude of -180 to 180°."), status: .badRequest
                )
            }
            return try Response.json(
                Answer(latitude: latitude, longitude: longitude, currentWeather: conditions(latitude, longitude)), status: .ok)
        }
    }

    /// Plausible and repeatable: colder towards the poles, wind from the coordinates' digits.
    static func conditions(_ latitude: Double, _ longitude: Double) -> Current {
        let seed = abs(Int((latitude * 1000).rounded()) &* 31 &+ Int((longitude * 1000).rounded()))
        let codes = [0, 1, 2, 3, 45, 61, 63, 71, 80]
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        return Current(
            time: String(formatter.string(from: Effects.system.now()).prefix(16)), interval: 900,
            temperature: ((25 - abs(latitude) * 0.4 + Double(seed % 70) / 10) * 10).rounded() / 10,
            windspeed: Double(seed % 300) / 10, winddirection: Double(seed % 360), isDay: 1, weathercode: codes[seed % codes.count])
    }

    // Open-Meteo's field names.
    struct Answer: Encodable {
        let latitude: Double
        let longitude: Double
        let currentWeather: Current

        enum CodingKeys: String, CodingKey { case latitude, longitude, currentWeather = "current_weather" }
    }

    struct Current: Encodable {
        let time: String
        let interval: Int
        let temperature: Double
        let windspeed: Double
        let winddirection: Double
        let isDay: Int
        let weathercode: Int

        enum CodingKeys: String, CodingKey { case time, interval, temperature, windspeed, winddirection, isDay = "is_day", weathercode }
    }

    struct Refusal: Encodable {
        let error: Bool
        let reason: String
    }
}
