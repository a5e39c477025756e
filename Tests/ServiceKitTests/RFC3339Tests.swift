import Contracts
import Foundation
import Testing

/// Times arrive as RFC 3339 in bodies and query parameters; every form the grammar allows is read.
/// Times leave in one form, whole seconds in UTC, which every client's decoder reads.
@Suite("RFC 3339 times")
struct RFC3339Tests {
    static let instant = Date(timeIntervalSince1970: 1_795_372_200)  // 2026-11-22T18:30:00Z

    @Test(
        "every form RFC 3339 allows names the same instant",
        arguments: [
            "2026-11-22T18:30:00Z", "2026-11-22t18:30:00z", "2026-11-22T20:30:00+02:00", "2026-11-22T08:00:00-10:30",
            "2026-11-23T16:41:00+22:11", "2026-11-21T19:31:00-22:59", "2026-11-22T18:30:00.000Z",
        ])
    func sameInstant(text: String) {
        #expect(HuddleJSON.parseRFC3339(text) == Self.instant)
    }

    @Test("fractions are kept")
    func fractions() {
        #expect(HuddleJSON.parseRFC3339("2026-11-22T18:30:00.25Z") == Self.instant.addingTimeInterval(0.25))
    }

    @Test(
        "what is not RFC 3339 is refused",
        arguments: [
            "2026-11-22 18:30:00Z", "2026-11-22T18:30:00", "2026-11-22T18:30:00+24:00", "2026-11-22T18:30:00+02:60",
            "2026-11-22T18:30:00+0200", "2026-11-22", "", "Z",
        ])
    func refused(text: String) {
        #expect(HuddleJSON.parseRFC3339(text) == nil)
    }

    @Test("times are written in whole seconds, cut rather than rounded")
    func writtenWhole() {
        #expect(HuddleJSON.formatRFC3339(Self.instant) == "2026-11-22T18:30:00Z")
        #expect(HuddleJSON.formatRFC3339(Self.instant.addingTimeInterval(0.999)) == "2026-11-22T18:30:00Z")
        #expect(HuddleJSON.formatRFC3339(Self.instant.addingTimeInterval(-0.001)) == "2026-11-22T18:29:59Z")
    }

    /// What an app does with a plain `JSONDecoder`: an answer whose times mixed whole seconds and
    /// milliseconds failed it.
    @Test("an answer with times made at any precision decodes with Foundation's .iso8601 strategy")
    func foundationReadsIt() throws {
        struct Times: Codable, Equatable { var startsAt: Date, createdAt: Date }
        let sent = Times(startsAt: Self.instant, createdAt: Self.instant.addingTimeInterval(0.042))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let read = try decoder.decode(Times.self, from: try HuddleJSON.encoder.encode(sent))
        #expect(read == Times(startsAt: Self.instant, createdAt: Self.instant))
    }
}
