import Contracts
import Foundation
import SQLKit
import ServiceStore

/// A fixture as betting keeps it: what the Bet tab shows, and what settling and polling need.
struct StoredFixture: Sendable {
    var fixture: Fixture
    let providerFixtureID: Int
    let matchVersion: Int
    /// Set while the match is postponed: when its legs become void unless it kicks off again first.
    let voidAt: Date?
}

/// Fixtures from games' match events, with the provider's odds beside them. The teams and league are
/// kept as JSON (read whole, never queried); kickoff, status, result and odds are columns.
protocol FixtureStore: Sendable {
    func fixture(_ id: MatchID, on sql: any SQLDatabase) async throws -> StoredFixture?
    /// The fixtures of `ids`; `held` keeps them from changing (odds, status) until the transaction ends.
    func fixtures(_ ids: [MatchID], held: Bool, on sql: any SQLDatabase) async throws -> [MatchID: StoredFixture]
    func fixtures(kickoff: Range<Date>, on sql: any SQLDatabase) async throws -> [StoredFixture]
    /// Fixtures that may still take picks: not started and kicking off before `until`.
    func pricing(from now: Date, until: Date, on sql: any SQLDatabase) async throws -> [StoredFixture]
    /// Postponed fixtures whose deadline has passed.
    func overdue(at now: Date, on sql: any SQLDatabase) async throws -> [MatchID]
    /// Writes the match's facts; false when the stored version is as new or newer (nothing written).
    func save(_ match: Match, providerFixtureID: Int, voidAt: Date?, on sql: any SQLDatabase) async throws -> Bool
    /// Takes the postponed fixture's deadline off if it has passed by `now`; false when it had not (or
    /// another instance took it first).
    func takeDueDeadline(_ id: MatchID, at now: Date, on sql: any SQLDatabase) async throws -> Bool
    /// Records new odds as the next version.
    func price(_ id: MatchID, _ odds: MatchOdds, at now: Date, on sql: any SQLDatabase) async throws
}

struct SQLFixtureStore: FixtureStore {
    private static let columns = [
        "id", "provider_fixture_id", "kickoff", "status", "match_version", "regular_home", "regular_away", "void_at", "odds_home",
        "odds_draw", "odds_away", "odds_version", "body",
    ]

    /// The facts of a fixture that only ever come whole from games.
    private struct Facts: Codable {
        let league: Match.League
        let home: Match.Team
        let away: Match.Team
    }

    func fixture(_ id: MatchID, on sql: any SQLDatabase) async throws -> StoredFixture? {
        try await sql.select().columns(Self.columns).from("fixtures").where("id", .equal, SQLBind(id.description)).first()
            .map(Self.decode)
    }

    func fixtures(_ ids: [MatchID], held: Bool, on sql: any SQLDatabase) async throws -> [MatchID: StoredFixture] {
        guard !ids.isEmpty else { return [:] }
        var query = sql.select().columns(Self.columns).from("fixtures")
            .where("id", .in, SQLBind.group(ids.map(\.description).sorted())).orderBy("id")
        if held { query = query.for(.share) }
        let rows = try await query.all()
        return Dictionary(try rows.map(Self.decode).map { ($0.fixture.id, $0) }) { first, _ in first }
    }

    func fixtures(kickoff: Range<Date>, on sql: any SQLDatabase) async throws -> [StoredFixture] {
        try await sql.select().columns(Self.columns).from("fixtures")
            .where("kickoff", .greaterThanOrEqual, SQLBind(kickoff.lowerBound)).where("kickoff", .lessThan, SQLBind(kickoff.upperBound))
            .orderBy("kickoff").orderBy("id").all().map(Self.decode)
    }

    func pricing(from now: Date, until: Date, on sql: any SQLDatabase) async throws -> [StoredFixture] {
        try await sql.select().columns(Self.columns).from("fixtures")
            .where("status", .in, SQLBind.group(MatchStatus.beforeKickoff.map(\.rawValue).sorted())).where(
                "kickoff", .greaterThan, SQLBind(now)
            )
            .where("kickoff", .lessThan, SQLBind(until)).orderBy("kickoff").orderBy("id").all().map(Self.decode)
    }

    func overdue(at now: Date, on sql: any SQLDatabase) async throws -> [MatchID] {
        try await sql.select().column("id").from("fixtures").where("void_at", .lessThanOrEqual, SQLBind(now)).orderBy("id").all()
            .map { try $0.typedID("id") }
    }

    func save(_ match: Match, providerFixtureID: Int, voidAt: Date?, on sql: any SQLDatabase) async throws -> Bool {
        let body = SQLBind(try StoredJSON.text(Facts(league: match.league, home: match.home, away: match.away)))
        let values: [(String, any SQLExpression)] = [
            ("provider_fixture_id", SQLBind(providerFixtureID)), ("kickoff", SQLBind(match.kickoff)),
            ("status", SQLBind(match.status.rawValue)),
            ("match_version", SQLBind(match.version)), ("regular_home", SQLBind(match.fulltime?.home)),
            ("regular_away", SQLBind(match.fulltime?.away)), ("void_at", SQLBind(voidAt)), ("body", body),
        ]
        let inserted = try await sql.insert(into: "fixtures").columns(["id"] + values.map(\.0))
            .values([SQLBind(match.id.description)] + values.map(\.1)).ignoringConflicts(with: ["id"]).returning("id").all()
        if !inserted.isEmpty { return true }
        var update = sql.update("fixtures")
        for (column, value) in values { update = update.set(SQLIdentifier(column), to: value) }
        let updated = try await update.where("id", .equal, SQLBind(match.id.description))
            .where("match_version", .lessThan, SQLBind(match.version)).returning("id").all()
        return !updated.isEmpty
    }

    /// Takes the postponed fixture's deadline off if it has passed by `now`; false when it had not (or
    /// another instance took it first).
    func takeDueDeadline(_ id: MatchID, at now: Date, on sql: any SQLDatabase) async throws -> Bool {
        let taken = try await sql.update("fixtures").set("void_at", to: SQLLiteral.null).where("id", .equal, SQLBind(id.description))
            .where("void_at", .lessThanOrEqual, SQLBind(now)).returning("id").all()
        return !taken.isEmpty
    }

    func price(_ id: MatchID, _ odds: MatchOdds, at now: Date, on sql: any SQLDatabase) async throws {
        let rows = try await sql.raw(
            """
            UPDATE fixtures SET odds_home = \(bind: odds.home.thousandths), odds_draw = \(bind: odds.draw.thousandths),
                odds_away = \(bind: odds.away.thousandths), odds_version = odds_version + 1
            WHERE id = \(bind: id.description) RETURNING odds_version
            """
        ).all()
        guard let version = try rows.first?.decode(column: "odds_version", as: Int.self) else { return }
        try await sql.insert(into: "odds_changes").columns("fixture_id", "version", "home", "draw", "away", "changed_at")
            .values(
                SQLBind(id.description), SQLBind(version), SQLBind(odds.home.thousandths), SQLBind(odds.draw.thousandths),
                SQLBind(odds.away.thousandths), SQLBind(now)
            ).run()
    }

    private static func decode(_ row: any SQLRow) throws -> StoredFixture {
        let facts = try row.requiredJSON("body", as: Facts.self)
        func odds(_ column: String) throws -> Odds? { try row.decode(column: column, as: Int?.self).flatMap { Odds(thousandths: $0) } }
        var prices: MatchOdds?
        if let home = try odds("odds_home"), let draw = try odds("odds_draw"), let away = try odds("odds_away") {
            prices = MatchOdds(home: home, draw: draw, away: away)
        }
        var result: Match.Score?
        if let home = try row.decode(column: "regular_home", as: Int?.self),
            let away = try row.decode(column: "regular_away", as: Int?.self)
        {
            result = Match.Score(home: home, away: away)
        }
        let fixture = Fixture(
            id: try row.typedID("id"), league: facts.league, kickoff: try row.decode(column: "kickoff", as: Date.self), home: facts.home,
            away: facts.away, status: try row.enumValue("status"), odds: prices,
            oddsVersion: try row.decode(column: "odds_version", as: Int.self), open: false, result: result)
        return StoredFixture(
            fixture: fixture, providerFixtureID: try row.decode(column: "provider_fixture_id", as: Int.self),
            matchVersion: try row.decode(column: "match_version", as: Int.self), voidAt: try row.decode(column: "void_at", as: Date?.self))
    }
}
