public import Foundation

/// The one JSON dialect of Huddle, servers and HuddleKit alike: camelCase keys, RFC 3339 dates in UTC.
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

    /// `2026-11-22T18:30:00Z`: whole seconds, always. One format is what every client reads —
    /// Foundation's `.iso8601` strategy and swift-openapi-generator's default transcoder both refuse
    /// fractions, and neither reads an answer that mixes the two. Fractions are cut, not rounded, so
    /// a time never moves past the second it happened in.
    public static func formatRFC3339(_ date: Date) -> String {
        let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        return whole.formatted(wholeSecondsUTC)
    }

    // Made once: a style's initialiser was 1 % of indexing's CPU when made for every date.
    private static let wholeSecondsUTC = Date.ISO8601FormatStyle(timeZone: .gmt)
    private static let fractionalSecondsUTC = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    /// Any RFC 3339 date-time. Foundation's ISO 8601 parser refuses two things RFC 3339 allows and
    /// schema validators accept: a lower-case `t`/`z`, and offsets beyond ±18:00 (the grammar allows
    /// up to 23:59); so the offset is read here and the rest is parsed as UTC.
    public static func parseRFC3339(_ text: String) -> Date? {
        let upper = text.uppercased()
        var local = Substring(upper), offsetSeconds = 0
        if upper.hasSuffix("Z") {
            local = upper.dropLast()
        } else {
            let offset = upper.suffix(6)
            let sign = offset.first, digits = offset.dropFirst()
            guard sign == "+" || sign == "-", digits.count == 5, digits.dropFirst(2).first == ":",
                let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)), hours <= 23, minutes <= 59
            else { return nil }
            offsetSeconds = (hours * 3600 + minutes * 60) * (sign == "+" ? 1 : -1)
            local = upper.dropLast(6)
        }
        let utc = String(local + "Z")
        // The style that fits is the only one tried: a failed parse throws, and trying fractions
        // first on the whole seconds every Huddle time has was half of decoding a date.
        let style = utc.contains(".") ? fractionalSecondsUTC : wholeSecondsUTC
        guard let date = try? style.parse(utc) else { return nil }
        return date.addingTimeInterval(-Double(offsetSeconds))
    }
}
