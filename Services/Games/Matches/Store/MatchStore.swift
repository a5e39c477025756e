import Contracts
import Foundation
import SQLKit
import ServiceStore

/// Professional matches as last reported, each version kept in `match_changes`. A match is stored as
/// its wire JSON: it is read whole and never queried inside; the columns beside it are what lists
/// filter and sort on.
protocol MatchStore: Sendable {
    /// Reads the match and holds it until the transaction ends, so its versions are handed out one
    /// at a time whichever instance ingests.
    func lock(_ id: MatchID, on sql: any SQLDatabase) async throws -> Match?
    /// Writes the match as it now stands and logs the version.
    func save(_ match: Match, fixtureID: Int, isNew: Bool, on sql: any SQLDatabase) async throws
    func match(_ id: MatchID, on sql: any SQLDatabase) async throws -> Match?
    func version(of id: MatchID, on sql: any SQLDatabase) async throws -> Int?
    func fixtureID(of id: MatchID, on sql: any SQLDatabase) async throws -> Int?
    /// Matches of a listing, soonest kickoff first; `versions` is the cheap read for its tag.
    func matches(_ listing: MatchListing, on sql: any SQLDatabase) async throws -> [Match]
    func versions(_ listing: MatchListing, on sql: any SQLDatabase) async throws -> [(id: MatchID, version: Int)]
    /// Versions after `version`, oldest first.
    func changes(of id: MatchID, after version: Int, on sql: any SQLDatabase) async throws -> [MatchChange]
    /// The provider reported these matches at `at` (changed or not).
    func reported(_ ids: [MatchID], at: Date, on sql: any SQLDatabase) async throws
    /// Matches in play, not marked silent, that the provider last reported before `cutoff`, with when.
    func unreported(since cutoff: Date, on sql: any SQLDatabase) async throws -> [(match: Match, reportedAt: Date)]
    /// Fixture ids with their status and kickoff, for matches kicking off from `since` on or in play.
    func schedule(since: Date, on sql: any SQLDatabase) async throws -> [(fixtureID: Int, status: MatchStatus, kickoff: Date)]
    /// Matches kicking off in `kickoff`, soonest first, with when their prediction was last asked for.
    func predictionCandidates(kickoff: Range<Date>, on sql: any SQLDatabase) async throws
        -> [(fixtureID: Int, status: MatchStatus, kickoff: Date, askedAt: Date?)]
    func predictionAsked(fixtureID: Int, at: Date, on sql: any SQLDatabase) async throws
}

/// Which matches a list shows: kicking off within `kickoff` (nil: any day), only in play when
/// `liveOnly`, of one league when `league` is set.
struct MatchListing: Sendable, Equatable {
    var kickoff: Range<Date>?
    var liveOnly = false
    var league: Int?
}

struct SQLMatchStore: MatchStore {
    func lock(_ id: MatchID, on sql: any SQLDatabase) async throws -> Match? {
        try await sql.select().column("body").from("matches").where("id", .equal, SQLBind(id.description)).for(.update).first()
            .map(Self.decode)
    }

    func save(_ match: Match, fixtureID: Int, isNew: Bool, on sql: any SQLDatabase) async throws {
        let body = SQLBind(try StoredJSON.text(match))
        if isNew {
            try await sql.insert(into: "matches")
                .columns("id", "fixture_id", "league_id", "kickoff", "status", "version", "body", "updated_at")
                .values(
                    SQLBind(match.id.description), SQLBind(fixtureID), SQLBind(match.league.id), SQLBind(match.kickoff),
                    SQLBind(match.status.rawValue), SQLBind(match.version), body, SQLBind(match.updatedAt)
                ).run()
        } else {
            try await sql.update("matches").set("league_id", to: SQLBind(match.league.id)).set("kickoff", to: SQLBind(match.kickoff))
                .set("status", to: SQLBind(match.status.rawValue)).set("version", to: SQLBind(match.version)).set("body", to: body)
                .set("updated_at", to: SQLBind(match.updatedAt)).where("id", .equal, SQLBind(match.id.description)).run()
        }
        try await sql.insert(into: "match_changes").columns("match_id", "version", "body", "changed_at")
            .values(SQLBind(match.id.description), SQLBind(match.version), body, SQLBind(match.updatedAt)).run()
    }

    func reported(_ ids: [MatchID], at: Date, on sql: any SQLDatabase) async throws {
        guard !ids.isEmpty else { return }
        try await sql.update("matches").set("reported_at", to: SQLBind(at)).where("id", .in, SQLBind.group(ids.map(\.description))).run()
    }

    func unreported(since cutoff: Date, on sql: any SQLDatabase) async throws -> [(match: Match, reportedAt: Date)] {
        // A match stored before reports were timed counts from its last version.
        let reportedAt = SQLFunction("coalesce", args: SQLColumn("reported_at"), SQLColumn("updated_at"))
        return try await sql.select().column("body").column(reportedAt, as: "reported").from("matches")
            .where("status", .in, SQLBind.group(MatchStatus.inPlay.map(\.rawValue).sorted()))
            .where(reportedAt, .lessThan, SQLBind(cutoff)).all()
            .map { (try Self.decode($0), try $0.decode(column: "reported", as: Date.self)) }
            .filter { $0.0.silentSince == nil }
    }

    func match(_ id: MatchID, on sql: any SQLDatabase) async throws -> Match? {
        try await sql.select().column("body").from("matches").where("id", .equal, SQLBind(id.description)).first().map(Self.decode)
    }

    func fixtureID(of id: MatchID, on sql: any SQLDatabase) async throws -> Int? {
        try await sql.select().column("fixture_id").from("matches").where("id", .equal, SQLBind(id.description)).first()
            .map { try $0.decode(column: "fixture_id", as: Int.self) }
    }

    func version(of id: MatchID, on sql: any SQLDatabase) async throws -> Int? {
        try await sql.select().column("version").from("matches").where("id", .equal, SQLBind(id.description)).first()
            .map { try $0.decode(column: "version", as: Int.self) }
    }

    func matches(_ listing: MatchListing, on sql: any SQLDatabase) async throws -> [Match] {
        try await select(["body"], listing, on: sql).all().map(Self.decode)
    }

    func versions(_ listing: MatchListing, on sql: any SQLDatabase) async throws -> [(id: MatchID, version: Int)] {
        try await select(["id", "version"], listing, on: sql).all().map { row in
            (try row.typedID("id"), try row.decode(column: "version", as: Int.self))
        }
    }

    func changes(of id: MatchID, after version: Int, on sql: any SQLDatabase) async throws -> [MatchChange] {
        try await sql.select().columns("version", "body").from("match_changes").where("match_id", .equal, SQLBind(id.description))
            .where("version", .greaterThan, SQLBind(version)).orderBy("version").all()
            .map { row in MatchChange(version: try row.decode(column: "version", as: Int.self), match: try Self.decode(row)) }
    }

    func schedule(since: Date, on sql: any SQLDatabase) async throws -> [(fixtureID: Int, status: MatchStatus, kickoff: Date)] {
        try await sql.select().columns("fixture_id", "status", "kickoff").from("matches")
            .where("kickoff", .greaterThanOrEqual, SQLBind(since)).orWhere(
                "status", .in, SQLBind.group(MatchStatus.inPlay.map(\.rawValue).sorted())
            )
            .all()
            .map { row in
                (
                    try row.decode(column: "fixture_id", as: Int.self), try row.enumValue("status"),
                    try row.decode(column: "kickoff", as: Date.self)
                )
            }
    }

    func predictionCandidates(kickoff: Range<Date>, on sql: any SQLDatabase) async throws
        -> [(fixtureID: Int, status: MatchStatus, kickoff: Date, askedAt: Date?)]
    {
        try await sql.select().columns("fixture_id", "status", "kickoff", "prediction_asked_at").from("matches")
            .where("kickoff", .greaterThanOrEqual, SQLBind(kickoff.lowerBound)).where("kickoff", .lessThan, SQLBind(kickoff.upperBound))
            .orderBy("kickoff").orderBy("id").all()
            .map { row in
                (
                    try row.decode(column: "fixture_id", as: Int.self), try row.enumValue("status"),
                    try row.decode(column: "kickoff", as: Date.self), try row.decode(column: "prediction_asked_at", as: Date?.self)
                )
            }
    }

    func predictionAsked(fixtureID: Int, at: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("matches").set("prediction_asked_at", to: SQLBind(at)).where("fixture_id", .equal, SQLBind(fixtureID)).run()
    }

    private func select(_ columns: [String], _ listing: MatchListing, on sql: any SQLDatabase) -> SQLSelectBuilder {
        var query = sql.select().columns(columns).from("matches")
        if let kickoff = listing.kickoff {
            query = query.where("kickoff", .greaterThanOrEqual, SQLBind(kickoff.lowerBound)).where(
                "kickoff", .lessThan, SQLBind(kickoff.upperBound))
        }
        if listing.liveOnly { query = query.where("status", .in, SQLBind.group(MatchStatus.inPlay.map(\.rawValue).sorted())) }
        if let league = listing.league { query = query.where("league_id", .equal, SQLBind(league)) }
        return query.orderBy("kickoff").orderBy("id")
    }

    private static func decode(_ row: any SQLRow) throws -> Match {
        try row.requiredJSON("body", as: Match.self)
    }
}
