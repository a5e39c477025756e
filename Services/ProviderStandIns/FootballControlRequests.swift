public import Foundation

/// The bodies of the stand-in's football test controls, shared by the stand-in that reads them and
/// `FootballControlClient` that sends them.
public enum FootballControl {
    /// `POST /test/football/fixtures`: a fixture to schedule; `kickoff` travels as RFC 3339.
    public struct NewFixture: Codable, Sendable {
        public struct League: Codable, Sendable {
            public let id: Int
            public let name: String

            public init(id: Int, name: String) {
                self.id = id
                self.name = name
            }
        }

        public let home: String
        public let away: String
        public let kickoff: Date
        public let league: League?
        public let odds: Odds?
        public let prediction: Prediction?

        private enum Keys: String, CodingKey { case home, away, kickoff, league, odds, prediction }

        public init(
            home: String, away: String, kickoff: Date, league: League? = nil, odds: Odds? = nil, prediction: Prediction? = nil
        ) {
            self.prediction = prediction
            self.home = home
            self.away = away
            self.kickoff = kickoff
            self.league = league
            self.odds = odds
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            home = try container.decode(String.self, forKey: .home)
            away = try container.decode(String.self, forKey: .away)
            let text = try container.decode(String.self, forKey: .kickoff)
            guard let kickoff = ISO8601DateFormatter().date(from: text) else {
                throw DecodingError.dataCorruptedError(forKey: .kickoff, in: container, debugDescription: "expected an RFC 3339 time")
            }
            self.kickoff = kickoff
            league = try container.decodeIfPresent(League.self, forKey: .league)
            odds = try container.decodeIfPresent(Odds.self, forKey: .odds)
            prediction = try container.decodeIfPresent(Prediction.self, forKey: .prediction)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(home, forKey: .home)
            try container.encode(away, forKey: .away)
            try container.encode(ISO8601DateFormatter().string(from: kickoff), forKey: .kickoff)
            try container.encodeIfPresent(league, forKey: .league)
            try container.encodeIfPresent(odds, forKey: .odds)
            try container.encodeIfPresent(prediction, forKey: .prediction)
        }
    }

    /// The "Match Winner" prices, decimal strings as the provider writes them.
    public struct Odds: Codable, Sendable {
        public let home: String
        public let draw: String
        public let away: String

        public init(home: String, draw: String, away: String) {
            self.home = home
            self.draw = draw
            self.away = away
        }
    }

    /// `PUT /test/football/fixtures/{id}/prediction`: the chances of each result, in percent.
    public struct Prediction: Codable, Sendable {
        public let home: Int
        public let draw: Int
        public let away: Int

        public init(home: Int, draw: Int, away: Int) {
            self.home = home
            self.draw = draw
            self.away = away
        }
    }

    /// `POST /test/football/fixtures/{id}/status`: a provider status code (`1H`, `FT`, `PST`, …).
    public struct StatusChange: Codable, Sendable {
        public let status: String
        public let elapsed: Int?

        public init(status: String, elapsed: Int? = nil) {
            self.status = status
            self.elapsed = elapsed
        }
    }

    public enum Side: String, Codable, Sendable { case home, away }

    /// `POST /test/football/fixtures/{id}/events`: a `Goal`, `Card`, `subst` or `Var` as the
    /// provider names them; a goal moves the score and a `Var` "Goal cancelled" takes it back.
    public struct NewEvent: Codable, Sendable {
        public let type: String
        public let detail: String
        public let team: Side
        public let player: String
        public let elapsed: Int

        public init(type: String, detail: String, team: Side, player: String, elapsed: Int) {
            self.type = type
            self.detail = detail
            self.team = team
            self.player = player
            self.elapsed = elapsed
        }

        public static func goal(_ team: Side, by player: String, at elapsed: Int) -> NewEvent {
            NewEvent(type: "Goal", detail: "Normal Goal", team: team, player: player, elapsed: elapsed)
        }
    }

    /// One call of `GET /test/football/requests` → `{items: [{resource, client, at}]}`: the feed's
    /// calls (`fixtures`, `odds`) oldest first, `client` being the caller's `User-Agent`, `at` in
    /// milliseconds since 1970.
    public struct ProviderRequest: Codable, Sendable {
        public let resource: String
        public let client: String
        public let at: Date
    }

    /// `POST /test/football/outage`: while down, the feed answers 503 to every call.
    public struct Outage: Codable, Sendable {
        public let down: Bool

        public init(down: Bool) { self.down = down }
    }
}
