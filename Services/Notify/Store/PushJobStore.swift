import Contracts
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

enum PushJobTag {}
typealias PushJobID = TypedID<PushJobTag>

/// What a push shows: its notification's words and data. Each job carries its own, so a push kept in
/// no inbox (a chat message's) is written once, as its jobs, and a worker reads nothing else to send it.
struct PushContent: Equatable, Sendable {
    var id: NotificationID
    var category: NotificationCategory
    var title: String
    var body: String
    var data: NotificationData
}

/// One push of one notification to one device.
struct PushJob: Equatable, Sendable {
    var id: PushJobID
    var content: PushContent
    /// Whose device it is: the badge counts their inbox.
    var recipient: UserID
    var device: Device
    var urgent: Bool
    var timeSensitive: Bool
    var attempts: Int
    var runAt: Date
    /// After this the push is not worth sending (`apns-expiration`), and is dropped.
    var expiresAt: Date
    /// The trace of what caused the push (the event applied, the request made), continued when it is sent.
    var trace: CarriedTrace? = nil
}

/// The push queue: a job is a row from when its notification is written until it is sent (then
/// deleted) or dropped (kept a while, with why). Workers claim due jobs with `FOR UPDATE SKIP LOCKED`
/// on PostgreSQL (each job goes to one worker of one replica) and lease them, so a worker killed
/// mid-send leaves its jobs to be claimed again when the lease runs out.
///
/// The lease is a column of its own, in no index, and a sent job is deleted rather than marked: every
/// job of a push to a 1,000-member room is claimed and finished, and on PostgreSQL a write to an
/// indexed column puts a new version of the row into every index where one to an unindexed column
/// rewrites it in its page. In a benchmark of 9,000 chat pushes the claims took 1,125 ms and the
/// finishes 733 ms of notify's 3,328 ms in PostgreSQL, when each was such a rewrite of `run_at` or `state`.
protocol PushJobStore: Sendable {
    func enqueue(_ jobs: [PushJob], on sql: any SQLDatabase) async throws
    /// Up to `limit` jobs due by `now`, oldest first, leased until `leaseUntil`; in a transaction.
    func claim(_ limit: Int, dueBy now: Date, leaseUntil: Date, on sql: any SQLDatabase) async throws -> [PushJob]
    /// Sent (deleted) or dropped (kept, with why, one attempt more).
    func finish(_ ids: [PushJobID], state: PushJobState, error: String?, at now: Date, on sql: any SQLDatabase) async throws
    /// Due again at `runAt`, one attempt more.
    func retry(_ id: PushJobID, at runAt: Date, error: String, on sql: any SQLDatabase) async throws
    /// Drops the token's pending jobs (the push service said it is no longer valid).
    func dropPending(token: String, reason: String, at now: Date, on sql: any SQLDatabase) async throws
    /// The soonest time a pending job is due, for a worker deciding how long to sleep.
    func nextDue(on sql: any SQLDatabase) async throws -> Date?
}

enum PushJobState: String, Sendable {
    case pending, sent, dropped
}

struct SQLPushJobStore: PushJobStore {
    let kind: Database.Kind

    private static let columns = [
        "id", "notification_id", "user_id", "category", "title", "body", "data", "token", "platform", "environment", "topic", "urgent",
        "time_sensitive", "attempts", "run_at",
        "expires_at", "traceparent", "tracestate",
    ]

    func enqueue(_ jobs: [PushJob], on sql: any SQLDatabase) async throws {
        for slice in jobs.statementSlices() {
            let rows = try slice.map { job -> [any SQLExpression] in
                let content = job.content
                return [
                    SQLBind(job.id.description), SQLBind(content.id.description), SQLBind(job.recipient.description),
                    SQLBind(content.category.rawValue), SQLBind(content.title), SQLBind(content.body),
                    SQLBind(try StoredJSON.text(content.data)), SQLBind(job.device.token),
                    SQLBind(job.device.platform.rawValue), SQLBind(job.device.environment?.rawValue), SQLBind(job.device.topic),
                    SQLBind(job.urgent), SQLBind(job.timeSensitive), SQLBind(job.attempts), SQLBind(job.runAt), SQLBind(job.expiresAt),
                    SQLBind(job.trace?.traceparent), SQLBind(job.trace?.tracestate), SQLBind(PushJobState.pending.rawValue),
                ]
            }
            try await sql.insert(into: "push_jobs").columns(Self.columns + ["state"]).rows(rows).run()
        }
    }

    func claim(_ limit: Int, dueBy now: Date, leaseUntil: Date, on sql: any SQLDatabase) async throws -> [PushJob] {
        // One statement chooses the due jobs not leased, locks them (skipping those another worker
        // holds) and leases them.
        let due = SQLSubquery.select { due in
            // The state written out, not bound: only then may SQLite read the index of pending jobs.
            let chosen = due.column("id").from("push_jobs").where("state", .equal, SQLLiteral.string(PushJobState.pending.rawValue))
                .where("run_at", .lessThanOrEqual, SQLBind(now))
                .where { $0.where("leased_until", .is, SQLLiteral.null).orWhere("leased_until", .lessThanOrEqual, SQLBind(now)) }
                .orderBy("run_at").limit(limit)
            // SQLite has one writer at a time, and the transaction around this is it.
            return kind == .postgres ? chosen.lockingClause(SQLRaw("FOR UPDATE SKIP LOCKED")) : chosen
        }
        // The queue grows from nothing to thousands of jobs within a second (a message to a 1,000-member
        // room), faster than PostgreSQL's statistics follow; believing the queue nearly empty, the
        // planner read every due job and sorted them for the first hundred, each claim. Walking the
        // index in order and stopping at the limit is right at any size: in a benchmark of 9,000 chat
        // pushes the claims took 11,394 ms the planner's way (17.6 ms each, 7,900 rows read and sorted).
        if kind == .postgres { try await sql.raw("SET LOCAL enable_sort = off").run() }
        // On PostgreSQL the chosen ids are handed over as an array: as `IN (subquery)` the planner may
        // join them by hashing a scan of the whole table, dead rows of sent jobs too.
        let chosen: any SQLExpression =
            kind == .postgres
            ? SQLBinaryExpression(
                SQLColumn("id"), .equal, SQLFunction("ANY", args: SQLList([SQLRaw("ARRAY"), due], separator: SQLRaw(""))))
            : SQLBinaryExpression(SQLColumn("id"), .in, due)
        // RETURNING answers the leased rows in no set order; ids are time-ordered, so sorting by them
        // sends the oldest first.
        return try await sql.update("push_jobs").set("leased_until", to: SQLBind(leaseUntil)).where(chosen)
            .returning(Self.columns.map { SQLColumn($0) }).all().map(Self.decode).sorted { $0.id.uuid < $1.id.uuid }
    }

    func finish(_ ids: [PushJobID], state: PushJobState, error: String?, at now: Date, on sql: any SQLDatabase) async throws {
        for slice in ids.statementSlices() {
            let chosen = SQLBind.group(slice.map(\.description))
            guard state != .sent else {
                try await sql.delete(from: "push_jobs").where("id", .in, chosen).run()
                continue
            }
            try await sql.update("push_jobs").set("state", to: SQLBind(state.rawValue)).set("last_error", to: SQLBind(error))
                .set("finished_at", to: SQLBind(now)).set("attempts", to: SQLRaw("attempts + 1")).where("id", .in, chosen).run()
        }
    }

    func retry(_ id: PushJobID, at runAt: Date, error: String, on sql: any SQLDatabase) async throws {
        try await sql.update("push_jobs").set("run_at", to: SQLBind(runAt)).set("leased_until", to: SQLLiteral.null)
            .set("last_error", to: SQLBind(error)).set("attempts", to: SQLRaw("attempts + 1"))
            .where("id", .equal, SQLBind(id.description)).run()
    }

    func dropPending(token: String, reason: String, at now: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("push_jobs").set("state", to: SQLBind(PushJobState.dropped.rawValue)).set("last_error", to: SQLBind(reason))
            .set("finished_at", to: SQLBind(now)).where("token", .equal, SQLBind(token))
            .where("state", .equal, SQLBind(PushJobState.pending.rawValue)).run()
    }

    func nextDue(on sql: any SQLDatabase) async throws -> Date? {
        // A leased job is due again when its lease runs out, if that is later.
        try await sql.raw(
            "SELECT MIN(CASE WHEN leased_until > run_at THEN leased_until ELSE run_at END) AS due FROM push_jobs WHERE state = 'pending'"
        ).first()?.decode(column: "due", as: Date?.self)
    }

    private static func decode(_ row: any SQLRow) throws -> PushJob {
        PushJob(
            id: try row.typedID("id"),
            content: PushContent(
                id: try row.typedID("notification_id"), category: try row.enumValue("category"),
                title: try row.decode(column: "title", as: String.self), body: try row.decode(column: "body", as: String.self),
                data: try row.requiredJSON("data", as: NotificationData.self)
            ),
            recipient: try row.typedID("user_id"),
            device: Device(
                platform: try row.enumValue("platform"), token: try row.decode(column: "token", as: String.self),
                environment: try row.decode(column: "environment", as: String?.self).flatMap(APNsEnvironment.init(rawValue:)),
                topic: try row.decode(column: "topic", as: String?.self), registeredAt: Date(timeIntervalSince1970: 0)),
            urgent: try row.decode(column: "urgent", as: Bool.self), timeSensitive: try row.decode(column: "time_sensitive", as: Bool.self),
            attempts: try row.decode(column: "attempts", as: Int.self), runAt: try row.decode(column: "run_at", as: Date.self),
            expiresAt: try row.decode(column: "expires_at", as: Date.self),
            trace: CarriedTrace(
                traceparent: try row.decode(column: "traceparent", as: String?.self),
                tracestate: try row.decode(column: "tracestate", as: String?.self)))
    }
}
