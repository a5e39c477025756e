import Contracts
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

/// Rounds with their copied holes, players, scores and the log of changes by version.
protocol RoundStore: Sendable {
    func insert(_ card: Scorecard, on sql: any SQLDatabase) async throws
    func card(_ id: RoundID, on sql: any SQLDatabase) async throws -> Scorecard?
    /// Reads the card and holds the round until the transaction ends, so its versions are handed
    /// out one at a time (a row lock on PostgreSQL; SQLite transactions already run one by one).
    func lock(_ id: RoundID, on sql: any SQLDatabase) async throws -> Scorecard?
    /// Writes one cell and logs it as `version`.
    /// `strokes` nil clears the cell.
    func setScore(_ strokes: Int?, of player: RoundPlayerID, hole: Int, in round: RoundID, version: Int, on sql: any SQLDatabase)
        async throws
    /// Seats a player after the others, with no scores, and logs it as `version`.
    func addPlayer(_ player: RoundPlayerID, userId: UserID?, name: String, to round: RoundID, version: Int, on sql: any SQLDatabase)
        async throws
    /// Marks the round completed and logs it as `version`.
    func finish(_ round: RoundID, version: Int, at date: Date, on sql: any SQLDatabase) async throws
    /// Changes after `version`, oldest first, as live messages.
    func changes(of round: RoundID, after version: Int, on sql: any SQLDatabase) async throws -> [LiveMessage]
    /// Rounds `user` plays in, newest first.
    func rounds(of user: UserID, status: RoundStatus?, after: TimeCursor?, limit: Int, on sql: any SQLDatabase) async throws
        -> [Scorecard]
}

struct SQLRoundStore: RoundStore {
    /// The module's clock, which stamps the rows this store writes.
    let now: @Sendable () -> Date

    func insert(_ card: Scorecard, on sql: any SQLDatabase) async throws {
        let id = SQLBind(card.id.description)
        try await sql.insert(into: "rounds")
            .columns("id", "course_id", "course_name", "status", "version", "current_hole", "started_by", "started_at", "course_unlisted")
            .values(
                id, SQLBind(card.courseId.description), SQLBind(card.courseName), SQLBind(card.status.rawValue), SQLBind(card.version),
                SQLBind(card.currentHole), SQLBind(card.startedBy.description), SQLBind(card.startedAt),
                SQLBind(card.courseUnlisted ?? false)
            ).run()
        let holes: [[any SQLExpression]] = card.holes.map { [id, SQLBind($0.number), SQLBind($0.par)] }
        try await sql.insert(into: "round_holes").columns("round_id", "number", "par").rows(holes).run()
        try await sql.insert(into: "round_players").columns("round_id", "player_id", "user_id", "name", "seat")
            .rows(
                card.players.enumerated().map { seat, player -> [any SQLExpression] in
                    [id, SQLBind(player.playerId.description), SQLBind(player.userId?.description), SQLBind(player.name), SQLBind(seat)]
                }
            ).run()
        let cells = card.players.flatMap { player in
            player.scores.compactMap { score -> [any SQLExpression]? in
                score.strokes.map { [id, SQLBind(player.playerId.description), SQLBind(score.hole), SQLBind($0)] }
            }
        }
        if !cells.isEmpty {
            try await sql.insert(into: "round_scores").columns("round_id", "player_id", "hole", "strokes").rows(cells).run()
        }
    }

    func card(_ id: RoundID, on sql: any SQLDatabase) async throws -> Scorecard? {
        try await cards(sql.select().columns(Self.roundColumns).from("rounds").where("id", .equal, SQLBind(id.description)), on: sql)
            .first
    }

    func lock(_ id: RoundID, on sql: any SQLDatabase) async throws -> Scorecard? {
        try await cards(
            sql.select().columns(Self.roundColumns).from("rounds").where("id", .equal, SQLBind(id.description)).for(.update), on: sql
        ).first
    }

    func setScore(_ strokes: Int?, of player: RoundPlayerID, hole: Int, in round: RoundID, version: Int, on sql: any SQLDatabase)
        async throws
    {
        if let strokes {
            // A hole's first score makes its row; a later one replaces it.
            try await sql.insert(into: "round_scores").columns("round_id", "player_id", "hole", "strokes")
                .values(SQLBind(round.description), SQLBind(player.description), SQLBind(hole), SQLBind(strokes))
                .onConflict(with: ["round_id", "player_id", "hole"]) { $0.set(excludedValueOf: "strokes") }.run()
        } else {
            // A cleared cell is a hole not played: no row.
            try await sql.delete(from: "round_scores").where("round_id", .equal, SQLBind(round.description))
                .where("player_id", .equal, SQLBind(player.description)).where("hole", .equal, SQLBind(hole)).run()
        }
        try await sql.update("rounds").set("version", to: SQLBind(version)).set("current_hole", to: SQLBind(hole))
            .where("id", .equal, SQLBind(round.description)).run()
        try await logChange(
            round, version: version, kind: .score, values: [SQLBind(player.description), SQLBind(hole), SQLBind(strokes)], on: sql)
    }

    func addPlayer(_ player: RoundPlayerID, userId: UserID?, name: String, to round: RoundID, version: Int, on sql: any SQLDatabase)
        async throws
    {
        let seats =
            try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "seats").from("round_players")
            .where("round_id", .equal, SQLBind(round.description)).first()?.decode(column: "seats", as: Int.self) ?? 0
        try await sql.insert(into: "round_players").columns("round_id", "player_id", "user_id", "name", "seat")
            .values(SQLBind(round.description), SQLBind(player.description), SQLBind(userId?.description), SQLBind(name), SQLBind(seats))
            .run()
        try await sql.update("rounds").set("version", to: SQLBind(version)).where("id", .equal, SQLBind(round.description)).run()
        try await logChange(
            round, version: version, kind: .playerAdded, values: [SQLBind(player.description), SQLLiteral.null, SQLLiteral.null], on: sql)
    }

    func finish(_ round: RoundID, version: Int, at date: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("rounds").set("status", to: SQLBind(RoundStatus.completed.rawValue)).set("version", to: SQLBind(version))
            .set("finished_at", to: SQLBind(date)).where("id", .equal, SQLBind(round.description)).run()
        try await logChange(round, version: version, kind: .finished, values: [SQLLiteral.null, SQLLiteral.null, SQLLiteral.null], on: sql)
    }

    func changes(of round: RoundID, after version: Int, on sql: any SQLDatabase) async throws -> [LiveMessage] {
        var messages = try await sql.select().columns("version", "kind", "player_id", "hole", "strokes").from("round_changes")
            .where("round_id", .equal, SQLBind(round.description)).where("version", .greaterThan, SQLBind(version))
            .orderBy("version").all()
            .map { row in
                LiveMessage(
                    type: try row.enumValue("kind"), version: try row.decode(column: "version", as: Int.self),
                    playerId: try row.decode(column: "player_id", as: String?.self).flatMap(RoundPlayerID.init),
                    hole: try row.decode(column: "hole", as: Int?.self), strokes: try row.decode(column: "strokes", as: Int?.self))
            }
        // The last message of a round carries its final card, and a player's arrival the card with them in it
        // (the card as it now is: later changes are in it too, and the versions after still follow).
        let whole: Set<LiveMessage.Kind> = [.finished, .playerAdded]
        if messages.contains(where: { whole.contains($0.type) }), let card = try await card(round, on: sql) {
            for index in messages.indices where whole.contains(messages[index].type) { messages[index].card = card }
        }
        return messages
    }

    func rounds(of user: UserID, status: RoundStatus?, after: TimeCursor?, limit: Int, on sql: any SQLDatabase) async throws
        -> [Scorecard]
    {
        let startedAt = SQLColumn("started_at", table: "rounds"), id = SQLColumn("id", table: "rounds")
        var query = sql.select().columns(Self.roundColumns.map { SQLColumn($0, table: "rounds") }).from("rounds")
            .join("round_players", on: SQLColumn("round_id", table: "round_players"), .equal, id)
            .where(SQLColumn("user_id", table: "round_players"), .equal, SQLBind(user.description))
        if let status { query = query.where(SQLColumn("status", table: "rounds"), .equal, SQLBind(status.rawValue)) }
        if let after { query = query.where(after.continuation(time: startedAt, id: id, descending: true)) }
        return try await cards(query.orderBy(startedAt, SQLDirection.descending).orderBy(id, SQLDirection.descending).limit(limit), on: sql)
    }

    // MARK: Reading cards

    static let roundColumns = [
        "id", "course_id", "course_name", "status", "version", "current_hole", "started_by", "started_at", "finished_at",
        "course_unlisted",
    ]

    private func logChange(_ round: RoundID, version: Int, kind: LiveMessage.Kind, values: [any SQLExpression], on sql: any SQLDatabase)
        async throws
    {
        try await sql.insert(into: "round_changes")
            .columns("round_id", "version", "kind", "player_id", "hole", "strokes", "changed_at")
            .values([SQLBind(round.description), SQLBind(version), SQLBind(kind.rawValue)] + values + [SQLBind(now())]).run()
    }

    /// Whole cards for the rounds `query` selects, in its order: four queries however many rounds.
    private func cards(_ query: SQLSelectBuilder, on sql: any SQLDatabase) async throws -> [Scorecard] {
        let rounds = try await query.all()
        guard !rounds.isEmpty else { return [] }
        let ids = try rounds.map { try $0.decode(column: "id", as: String.self) }
        var holes: [String: [ScorecardHole]] = [:]
        for row in try await sql.select().columns("round_id", "number", "par").from("round_holes")
            .where("round_id", .in, SQLBind.group(ids)).orderBy("number").all()
        {
            holes[try row.decode(column: "round_id", as: String.self), default: []].append(
                ScorecardHole(number: try row.decode(column: "number", as: Int.self), par: try row.decode(column: "par", as: Int.self)))
        }
        var strokes: [String: [Int: Int]] = [:]
        for row in try await sql.select().columns("round_id", "player_id", "hole", "strokes").from("round_scores")
            .where("round_id", .in, SQLBind.group(ids)).all()
        {
            let key = try row.decode(column: "round_id", as: String.self) + "/" + row.decode(column: "player_id", as: String.self)
            strokes[key, default: [:]][try row.decode(column: "hole", as: Int.self)] = try row.decode(column: "strokes", as: Int.self)
        }
        var players: [String: [ScorecardPlayer]] = [:]
        for row in try await sql.select().columns("round_id", "player_id", "user_id", "name").from("round_players")
            .where("round_id", .in, SQLBind.group(ids)).orderBy("seat").all()
        {
            let round = try row.decode(column: "round_id", as: String.self)
            let playerId: RoundPlayerID = try row.typedID("player_id")
            let player = playerId.description
            players[round, default: []].append(
                Scoring.line(
                    playerId: playerId, userId: try row.decode(column: "user_id", as: String?.self).flatMap(UserID.init),
                    name: ShownWords.shown(try row.decode(column: "name", as: String.self)), strokes: strokes[round + "/" + player] ?? [:],
                    holes: holes[round] ?? []))
        }
        return try rounds.map { row in
            let id = try row.decode(column: "id", as: String.self)
            var card = Scorecard(
                id: try row.typedID("id"), courseId: try row.typedID("course_id"),
                courseName: try row.decode(column: "course_name", as: String.self), status: try row.enumValue("status"),
                version: try row.decode(column: "version", as: Int.self), currentHole: try row.decode(column: "current_hole", as: Int.self),
                holes: holes[id] ?? [], players: players[id] ?? [], startedBy: try row.typedID("started_by"),
                startedAt: try row.decode(column: "started_at", as: Date.self),
                finishedAt: try row.decode(column: "finished_at", as: Date?.self))
            if try row.decode(column: "course_unlisted", as: Bool.self) { card.courseUnlisted = true }
            return card
        }
    }
}
