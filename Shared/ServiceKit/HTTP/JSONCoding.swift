public import Foundation

/// The one JSON dialect of Huddle: camelCase keys, RFC 3339 dates in UTC.
public enum HuddleJSON {
    /// Shared instances for the hot path; both are safe to use from many tasks at once.
    public static let encoder = makeEncoder()
    public static let decoder = makeDecoder()

    static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(formatRFC3339(date))
        }
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return encoder
    }

    static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseRFC3339(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "expected an RFC 3339 time such as 2026-11-22T18:30:00Z")
            }
            return date
        }
        return decoder
    }

    /// `2026-11-22T18:30:00Z`, with milliseconds only when the date has them.
    public static func formatRFC3339(_ date: Date) -> String {
        let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
        return date.formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: !whole, timeZone: .gmt))
    }

    public static func parseRFC3339(_ text: String) -> Date? {
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        return try? Date.ISO8601FormatStyle().parse(text)
    }
}
