import Contracts
import Foundation
import SQLKit
import ServiceStore

/// One person's place on a game's roster as stored.
struct RosterPlacement: Sendable, Equatable {
    var userId: UserID
    var status: RosterStatus
    var substitute: Bool
    /// 1-based place on the waiting list; nil unless waitlisted.
    var position: Int?
}

/// Who stands where on each game. Callers hold the game's lock (`GameStore.lock`) while writing.
protocol RosterStore: Sendable {
    func placement(of user: UserID, in game: GameID, on sql: any SQLDatabase) async throws -> RosterPlacement?
    /// Puts the user at `status`; becoming `waitlisted` queues them last, any other status leaves the
    /// queue. `substitute` marks them as one; once marked, they stay marked.
    func set(_ status: RosterStatus, substitute: Bool, of user: UserID, in game: GameID, on sql: any SQLDatabase) async throws
    func remove(_ user: UserID, from game: GameID, on sql: any SQLDatabase) async throws
    /// Everyone on the roster: going, maybe, waiting (in queue order), invited, pending, not going.
    func placements(in game: GameID, on sql: any SQLDatabase) async throws -> [RosterPlacement]
    /// The first `count` people of the waiting list, first in line first.
    func firstWaiting(_ count: Int, in game: GameID, on sql: any SQLDatabase) async throws -> [UserID]
}

struct SQLRosterStore: RosterStore {
    /// The module's clock, which stamps the rows this store writes.
    let now: @Sendable () -> Date

    static let displayOrder: [RosterStatus] = [.going, .maybe, .waitlisted, .invited, .pending, .notGoing]

    func placement(of user: UserID, in game: GameID, on sql: any SQLDatabase) async throws -> RosterPlacement? {
        guard
            let row = try await sql.select().columns("status", "substitute", "queue_number").from("roster")
                .where("game_id", .equal, SQLBind(game.description)).where("user_id", .equal, SQLBind(user.description)).first()
        else { return nil }
        var placement = RosterPlacement(
            userId: user, status: try row.enumValue("status"), substitute: try row.decode(column: "substitute", as: Bool.self))
        if placement.status == .waitlisted, let number = try row.decode(column: "queue_number", as: Int?.self) {
            // A position counts the people ahead, from 1.
            placement.position = try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "ahead").from("roster")
                .where("game_id", .equal, SQLBind(game.description)).where("status", .equal, SQLBind(RosterStatus.waitlisted.rawValue))
                .where("queue_number", .lessThanOrEqual, SQLBind(number)).first()?.decode(column: "ahead", as: Int.self)
        }
        return placement
    }

    func set(_ status: RosterStatus, substitute: Bool, of user: UserID, in game: GameID, on sql: any SQLDatabase) async throws {
        var queueNumber: Int? = nil
        if status == .waitlisted {
            let current = try await sql.select().columns("status", "queue_number").from("roster")
                .where("game_id", .equal, SQLBind(game.description)).where("user_id", .equal, SQLBind(user.description)).first()
            if let current, try current.decode(column: "status", as: String.self) == RosterStatus.waitlisted.rawValue {
                return
            }
            let last = try await sql.select().column(SQLFunction("MAX", args: SQLColumn("queue_number")), as: "last").from("roster")
                .where("game_id", .equal, SQLBind(game.description)).first()?.decode(column: "last", as: Int?.self)
            queueNumber = (last ?? 0) + 1
        }
        try await sql.insert(into: "roster").columns("game_id", "user_id", "status", "substitute", "queue_number", "updated_at")
            .values(
                SQLBind(game.description), SQLBind(user.description), SQLBind(status.rawValue), SQLBind(substitute),
                SQLBind(queueNumber), SQLBind(now())
            )
            .onConflict(with: ["game_id", "user_id"]) {
                $0.set(excludedValueOf: "status").set(excludedValueOf: "queue_number").set(excludedValueOf: "updated_at")
                    .set(
                        "substitute",
                        to: SQLBinaryExpression(SQLColumn("substitute", table: "roster"), .or, SQLExcludedColumn("substitute")))
            }
            .run()
    }

    func remove(_ user: UserID, from game: GameID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "roster")
            .where("game_id", .equal, SQLBind(game.description)).where("user_id", .equal, SQLBind(user.description)).run()
    }

    func placements(in game: GameID, on sql: any SQLDatabase) async throws -> [RosterPlacement] {
        let rows = try await sql.select().columns("user_id", "status", "substitute", "queue_number").from("roster")
            .where("game_id", .equal, SQLBind(game.description)).orderBy("updated_at").orderBy("user_id").all()
        var placements = try rows.map { row in
            RosterPlacement(
                userId: try row.typedID("user_id"), status: try row.enumValue("status"),
                substitute: try row.decode(column: "substitute", as: Bool.self),
                position: try row.decode(column: "queue_number", as: Int?.self))
        }
        // Queue numbers only order the list; a position counts places from 1.
        let queue = placements.indices.filter { placements[$0].status == .waitlisted }
            .sorted { (placements[$0].position ?? 0) < (placements[$1].position ?? 0) }
        for (place, index) in queue.enumerated() { placements[index].position = place + 1 }
        for index in placements.indices where placements[index].status != .waitlisted { placements[index].position = nil }
        return Self.displayOrder.flatMap { status in
            let group = placements.filter { $0.status == status }
            return status == .waitlisted ? group.sorted { ($0.position ?? 0) < ($1.position ?? 0) } : group
        }
    }

    func firstWaiting(_ count: Int, in game: GameID, on sql: any SQLDatabase) async throws -> [UserID] {
        guard count > 0 else { return [] }
        return try await sql.select().column("user_id").from("roster")
            .where("game_id", .equal, SQLBind(game.description)).where("status", .equal, SQLBind(RosterStatus.waitlisted.rawValue))
            .orderBy("queue_number").limit(count).all().map { try $0.typedID("user_id") }
    }
}
