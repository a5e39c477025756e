public import Foundation

/// Decimal odds, exact: a whole number of thousandths (`"1.770"` is 1770). On the wire a string with
/// up to three decimals; never a binary float. At least 1.001 (a price of 1.000 or less pays nothing).
public struct Odds: Hashable, Sendable, Comparable, Codable, LosslessStringConvertible, SchemaDescribed {
    public let thousandths: Int

    public static let scale = 1000
    /// Up to 999,999,999,999.999: enough for the product of a long accumulator.
    public static let range = 1001...999_999_999_999_999

    public init?(thousandths: Int) {
        guard Self.range.contains(thousandths) else { return nil }
        self.thousandths = thousandths
    }

    /// `"1.77"`, `"1.770"`, `"2"`: up to twelve digits without a leading zero, and at most three
    /// decimals after a point (`schema` says the same as a pattern).
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, (1...12).contains(whole.count), whole.first != "0",
            whole.allSatisfy(\.isASCIIDigit), let units = Int(whole)
        else { return nil }
        var fraction = parts.count == 2 ? parts[1] : ""
        guard fraction.count <= 3, parts.count == 1 || !fraction.isEmpty, fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        while fraction.count < 3 { fraction += "0" }
        self.init(thousandths: units * Self.scale + (Int(fraction) ?? 0))
    }

    /// Always three decimals: `"1.770"`.
    public var description: String {
        let fraction = String(thousandths % Self.scale)
        return "\(thousandths / Self.scale)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let odds = Odds(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "must be decimal odds above 1 with at most 3 decimals, as a string")
            )
        }
        self = odds
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public static func < (lhs: Odds, rhs: Odds) -> Bool { lhs.thousandths < rhs.thousandths }

    public static var schema: JSONSchema {
        // Above 1: a whole part of 2 or more, or 1 with a decimal part that is not all zeros.
        var schema = JSONSchema.string.pattern(
            JSONSchema.whole("(?:[2-9]|[1-9][0-9]{1,11})(?:\\.[0-9]{1,3})?|1\\.(?:[1-9][0-9]{0,2}|0[1-9][0-9]?|00[1-9])"))
        schema.description = "decimal odds above 1, as a string with up to 3 decimals (\"1.770\")"
        return schema
    }
    public static var schemaSample: Odds { Odds(thousandths: 2000)! }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

/// A 1X2 pick: the home team wins, a draw, the away team wins (after regular time). Sent as `1`,
/// `X`, `2`, or by the names the odds use (`home`, `draw`, `away`); answered as `1`, `X`, `2`.
public enum Pick: String, Codable, Sendable, CaseIterable, WireEnum {
    case home = "1"
    case draw = "X"
    case away = "2"

    public static let aliases: [String: Pick] = ["home": .home, "draw": .draw, "away": .away]
    public static let wireDescription: String? =
        "1: the home team wins, X: a draw, 2: the away team wins (after regular time); home, draw and away, as the odds name them, are taken too"

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let pick = Pick(rawValue: text) ?? Self.aliases[text] else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text) is not one of 1, X, 2, home, draw, away")
        }
        self = pick
    }
}

/// The "Match Winner" prices of a fixture.
public struct MatchOdds: Codable, Equatable, Sendable {
    public var home: Odds
    public var draw: Odds
    public var away: Odds
    public init(home: Odds, draw: Odds, away: Odds) {
        self.home = home
        self.draw = draw
        self.away = away
    }

    public subscript(pick: Pick) -> Odds {
        switch pick {
        case .home: home
        case .draw: draw
        case .away: away
        }
    }
}

/// A match as the Bet tab shows it; its id is the match's id. Odds are nil until the provider
/// prices it; each change of odds is a new `oddsVersion`. The market is open while the match has not
/// started (`status` NS or TBD) and its kickoff is ahead.
public struct Fixture: Codable, Equatable, Sendable {
    public var id: MatchID
    public var league: Match.League
    public var kickoff: Date
    public var home: Match.Team
    public var away: Match.Team
    public var status: MatchStatus
    public var odds: MatchOdds?
    public var oddsVersion: Int
    /// Whether picks on it are taken now.
    public var open: Bool
    /// The score at the end of regular time, once the match is over.
    public var result: Match.Score?

    public init(
        id: MatchID, league: Match.League, kickoff: Date, home: Match.Team, away: Match.Team, status: MatchStatus, odds: MatchOdds?,
        oddsVersion: Int, open: Bool, result: Match.Score?
    ) {
        self.id = id
        self.league = league
        self.kickoff = kickoff
        self.home = home
        self.away = away
        self.status = status
        self.odds = odds
        self.oddsVersion = oddsVersion
        self.open = open
        self.result = result
    }
}

/// A user's play-money balance, in minor units.
public struct Wallet: Codable, Equatable, Sendable {
    public var balance: Int
    public var currency: String
    public init(balance: Int, currency: String) {
        self.balance = balance
        self.currency = currency
    }
}

/// The draft ticket kept for each user: a pick per fixture and a stake. Odds are the current ones;
/// a selection whose market closed stays listed with `open: false` and leaves the totals.
public struct Slip: Codable, Equatable, Sendable {
    public struct Selection: Codable, Equatable, Sendable {
        public var fixtureId: MatchID
        public var pick: Pick
        public var odds: Odds?
        public var home: String
        public var away: String
        public var kickoff: Date
        public var open: Bool
        public init(fixtureId: MatchID, pick: Pick, odds: Odds?, home: String, away: String, kickoff: Date, open: Bool) {
            self.fixtureId = fixtureId
            self.pick = pick
            self.odds = odds
            self.home = home
            self.away = away
            self.kickoff = kickoff
            self.open = open
        }
    }

    public var selections: [Selection]
    public var stake: Int?
    public var currency: String
    /// The product of the open selections' odds, rounded down to three decimals; nil without any.
    public var totalOdds: Odds?
    /// stake × the exact product of the odds, rounded down to the minor unit (0 without a stake).
    public var potentialWinnings: Int

    public init(selections: [Selection], stake: Int?, currency: String, totalOdds: Odds?, potentialWinnings: Int) {
        self.selections = selections
        self.stake = stake
        self.currency = currency
        self.totalOdds = totalOdds
        self.potentialWinnings = potentialWinnings
    }
}

/// `PUT /v1/betting/slip/selections/{fixtureId}`.
public struct SlipPick: Codable, Equatable, Sendable {
    public var pick: Pick
    public init(pick: Pick) { self.pick = pick }
}

/// A pick without odds, as a slip holds it.
public struct SlipSelection: Codable, Equatable, Sendable {
    public var fixtureId: MatchID
    public var pick: Pick
    public init(fixtureId: MatchID, pick: Pick) {
        self.fixtureId = fixtureId
        self.pick = pick
    }
}

/// A whole slip at once: priced for anyone, signed in or not (`POST /v1/betting/quote`), or put as my
/// slip (`PUT /v1/betting/slip`: a guest's picks after signing in). The stake, when given, within the
/// configured limits (STAKE_OUT_OF_RANGE); at most the configured number of selections
/// (TOO_MANY_SELECTIONS), one per fixture (DUPLICATE_SELECTION).
public struct SlipRequest: Codable, Equatable, Sendable {
    public var stake: Int?
    public var selections: [SlipSelection]
    public init(stake: Int?, selections: [SlipSelection]) {
        self.stake = stake
        self.selections = selections
    }
}

/// `PUT /v1/betting/slip/stake`: minor units, within the configured limits (STAKE_OUT_OF_RANGE
/// otherwise).
public struct SlipStake: Codable, Equatable, Sendable {
    public var stake: Int
    public init(stake: Int) { self.stake = stake }
}

public enum TicketTag: NamedThing { public static let noun = "ticket" }
public typealias TicketID = TypedID<TicketTag>

/// One pick of a ticket to place, with the odds the user saw.
public struct TicketPick: Codable, Equatable, Sendable {
    public var fixtureId: MatchID
    public var pick: Pick
    public var odds: Odds
    public init(fixtureId: MatchID, pick: Pick, odds: Odds) {
        self.fixtureId = fixtureId
        self.pick = pick
        self.odds = odds
    }
}

/// `POST /v1/betting/tickets`, with an `Idempotency-Key`. The stake is in minor units within the
/// configured limits (STAKE_OUT_OF_RANGE otherwise); at most the configured number of selections
/// (TOO_MANY_SELECTIONS), one per fixture (DUPLICATE_SELECTION).
public struct PlaceTicket: Codable, Equatable, Sendable, FieldConstraints {
    public var stake: Int
    public var selections: [TicketPick]
    /// Take better current odds instead of refusing with ODDS_CHANGED (worse ones are still refused).
    public var acceptBetterOdds: Bool?
    /// Show the ticket in the global chat, as a message from me, once it is placed.
    public var share: Bool?
    public init(stake: Int, selections: [TicketPick], acceptBetterOdds: Bool? = nil, share: Bool? = nil) {
        self.stake = stake
        self.selections = selections
        self.acceptBetterOdds = acceptBetterOdds
        self.share = share
    }
    public static var constraints: [String: JSONSchema] {
        var atLeastOne = JSONSchema()
        atLeastOne.minItems = 1
        return ["selections": atLeastOne]
    }
}

public enum TicketStatus: String, Codable, Sendable, CaseIterable, WireEnum { case open, won, lost, void }

/// A placed ticket. A void leg (a cancelled match) counts as odds 1.000: the ticket is won when every
/// other leg is won, void (the stake returned) when every leg is void, lost otherwise.
public struct Ticket: Codable, Equatable, Sendable {
    public struct Leg: Codable, Equatable, Sendable {
        public var fixtureId: MatchID
        public var pick: Pick
        public var odds: Odds
        public var result: TicketStatus
        public var home: String
        public var away: String
        public init(fixtureId: MatchID, pick: Pick, odds: Odds, result: TicketStatus, home: String, away: String) {
            self.fixtureId = fixtureId
            self.pick = pick
            self.odds = odds
            self.result = result
            self.home = home
            self.away = away
        }
    }

    public var id: TicketID
    public var status: TicketStatus
    public var stake: Int
    public var currency: String
    public var totalOdds: Odds
    public var potentialWinnings: Int
    /// What the wallet was paid when the ticket settled (0 for a lost one); nil while open.
    public var payout: Int?
    public var selections: [Leg]
    public var placedAt: Date
    public var settledAt: Date?

    public init(
        id: TicketID, status: TicketStatus, stake: Int, currency: String, totalOdds: Odds, potentialWinnings: Int, payout: Int?,
        selections: [Leg], placedAt: Date, settledAt: Date?
    ) {
        self.id = id
        self.status = status
        self.stake = stake
        self.currency = currency
        self.totalOdds = totalOdds
        self.potentialWinnings = potentialWinnings
        self.payout = payout
        self.selections = selections
        self.placedAt = placedAt
        self.settledAt = settledAt
    }
}

/// One movement of a wallet, from the ledger: `amount` is positive into the wallet, negative out.
public enum WalletTransactionTag: NamedThing { public static let noun = "transaction" }
public typealias WalletTransactionID = TypedID<WalletTransactionTag>

public struct WalletTransaction: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable, CaseIterable, WireEnum {
        /// The opening grant.
        case grant
        /// A top-up back to the grant (`POST /v1/betting/wallet/refill`).
        case refill
        /// A ticket's stake.
        case stake
        /// A won ticket's winnings.
        case payout
        /// A void ticket's stake returned.
        case refund
    }

    /// The ledger transfer's id, lower-case on the wire as every id is.
    public var id: WalletTransactionID
    public var kind: Kind
    public var amount: Int
    public var currency: String
    public var ticketId: TicketID?
    public var at: Date

    public init(id: WalletTransactionID, kind: Kind, amount: Int, currency: String, ticketId: TicketID?, at: Date) {
        self.id = id
        self.kind = kind
        self.amount = amount
        self.currency = currency
        self.ticketId = ticketId
        self.at = at
    }
}

/// The 409 ODDS_CHANGED: the problem, and the current odds of each pick whose price moved (nil
/// when the fixture has none any more).
public struct OddsChanged: Codable, Equatable, Sendable {
    public struct Change: Codable, Equatable, Sendable {
        public var fixtureId: MatchID
        public var pick: Pick
        public var odds: Odds?
        public init(fixtureId: MatchID, pick: Pick, odds: Odds?) {
            self.fixtureId = fixtureId
            self.pick = pick
            self.odds = odds
        }
    }

    public var type: String
    public var title: String
    public var status: Int
    public var detail: String?
    public var code: String
    /// The trace the refusal happened in, as every problem names it.
    public var traceId: String?
    public var changes: [Change]

    public init(problem: Problem, changes: [Change]) {
        self.type = problem.type
        self.title = problem.title
        self.status = problem.status
        self.detail = problem.detail
        self.code = problem.code
        self.traceId = problem.traceId
        self.changes = changes
    }
}
