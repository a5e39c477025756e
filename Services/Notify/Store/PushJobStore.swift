import Contracts
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

/// The push queue: a job is a row from when its notification is written until it is sent (then
/// deleted) or dropped (kept a while, with why). Workers claim due jobs with `FOR UPDATE SKIP LOCKED`
/// on PostgreSQL (each job goes to one worker of one replica) and lease them, so a worker killed
/// mid-send leaves its jobs to be claimed again when the lease runs out.
///
/// The lease is a column of its own, in no index, and a sent job is deleted rather than marked: on
/// PostgreSQL a write to an indexed column puts a new version of the row into every index where one to
/// an unindexed column rewrites it in its page. In a benchmark of 9,000 chat pushes the claims took
/// 1,125 ms and the finishes 733 ms of notify's 3,328 ms in PostgreSQL, when each was such a rewrite of
/// `run_at` or `state`.
///
/// A push that many devices show alike (one kept in no inbox, a chat message's) is a row per hundred
/// of its devices rather than one each (`targets`, `devices`, and how many of them were `answered`):
/// a message to a room of 1,000 members away is ten rows inserted, claimed and deleted where it was
/// 900, which were most of the statements notify ran in PostgreSQL beside chat's sends. A claim takes
/// rows until they hold `limit` devices; the worker records how far a row was answered as it
/// goes (so a kill repeats no more than a row of one's would), and a device whose push must go again
/// or was refused leaves the row as a job of its own.
protocol PushJobStore: Sendable {
    func enqueue(_ jobs: [PushJob], on sql: any SQLDatabase) async throws
    /// Jobs due by `now`, oldest first, `limit` devices or a few more (at least one row), leased until
    /// `leaseUntil`; a shared row's devices not yet answered, each as a job; in a transaction.
    func claim(_ limit: Int, dueBy now: Date, leaseUntil: Date, on sql: any SQLDatabase) async throws -> [PushJob]
    /// Sent (deleted) or dropped (kept, with why, one attempt more).
    func finish(_ ids: [PushJobID], state: PushJobState, error: String?, at now: Date, on sql: any SQLDatabase) async throws
    /// Due again at `runAt`, one attempt more.
    func retry(_ id: PushJobID, at runAt: Date, error: String, on sql: any SQLDatabase) async throws
    /// A shared row's first `answered` devices are done: deleted when that is all of them, otherwise
    /// its lease held on to `leaseUntil`.
    func advance(_ row: PushJobID, answered: Int, of devices: Int, leaseUntil: Date, on sql: any SQLDatabase) async throws
    /// A device of a shared row as a job of its own, one attempt more: due again at `runAt`, or dropped with why.
    func setApart(_ job: PushJob, state: PushJobState, runAt: Date, error: String, at now: Date, on sql: any SQLDatabase) async throws
    /// Drops the token's pending jobs and takes it out of shared rows (the push service said it is
    /// no longer valid, or its player removed it).
    func dropPending(token: String, reason: String, at now: Date, on sql: any SQLDatabase) async throws
    /// Takes the user's devices out of the rows they share with others (their account is erased).
    func withdraw(_ user: UserID, on sql: any SQLDatabase) async throws
    /// The soonest time a pending job is due, for a worker deciding how long to sleep.
    func nextDue(on sql: any SQLDatabase) async throws -> Date?
}

enum PushJobState: String, Sendable {
    case pending, sent, dropped
}

struct SQLPushJobStore: PushJobStore {
    let kind: Database.Kind
    /// A claim's worth of devices at the default batch.
    static let devicesPerRow = 100

    private static let columns = [
        "id", "notification_id", "user_id", "category", "title", "body", "data", "token", "platform", "environment", "topic", "urgent",
        "time_sensitive", "attempts", "run_at", "expires_at", "traceparent", "tracestate", "targets", "devices", "answered",
    ]

    func enqueue(_ jobs: [PushJob], on sql: any SQLDatabase) async throws {
        var rows: [[any SQLExpression]] = []
        for same in Self.alike(jobs) {
            guard same.count > 1 else {
                rows.append(try Self.values(of: same[0], state: .pending))
                continue
            }
            for slice in same.statementSlices(of: Self.devicesPerRow) {
                rows.append(try Self.values(of: slice.first!, state: .pending, sharedBy: slice.map(PushTarget.init)))
            }
        }
        for slice in rows.statementSlices() {
            try await sql.insert(into: "push_jobs").columns(Self.columns + ["state"]).rows(Array(slice)).run()
        }
    }

    func claim(_ limit: Int, dueBy now: Date, leaseUntil: Date, on sql: any SQLDatabase) async throws -> [PushJob] {
        // The queue grows from nothing to thousands of jobs within a second (a message to a 1,000-member
        // room), faster than PostgreSQL's statistics follow; believing the queue nearly empty, the
        // planner read every due job and sorted them for the first hundred, each claim. Walking the
        // index in order and stopping at the limit is right at any size: in a benchmark of 9,000 chat
        // pushes the claims took 11,394 ms the planner's way (17.6 ms each, 7,900 rows read and sorted).
        if kind == .postgres { try await sql.raw("SET LOCAL enable_sort = off").run() }
        // How many of the oldest due rows hold `limit` devices, read without a lock: locking all the
        // rows a claim might take, to lease one shared row, wrote a lock into each (90 a claim while a
        // room's pushes were queued) and left the other worker nothing to take meanwhile.
        let waiting = try await sql.raw(
            """
            SELECT devices - answered AS waiting FROM push_jobs
            WHERE state = 'pending' AND run_at <= \(bind: now) AND (leased_until IS NULL OR leased_until <= \(bind: now))
            ORDER BY run_at LIMIT \(literal: limit)
            """
        ).all(decodingColumn: "waiting", as: Int.self)
        var rows = 0, devices = 0
        for count in waiting where devices < limit { (rows, devices) = (rows + 1, devices + count) }
        guard rows > 0 else { return [] }
        // One statement chooses that many due rows not leased, locks them (skipping those another worker
        // holds) and leases them.
        let due = SQLSubquery.select { due in
            // The state written out, not bound: only then may SQLite read the index of pending jobs.
            let chosen = due.column("id").from("push_jobs").where("state", .equal, SQLLiteral.string(PushJobState.pending.rawValue))
                .where("run_at", .lessThanOrEqual, SQLBind(now))
                .where { $0.where("leased_until", .is, SQLLiteral.null).orWhere("leased_until", .lessThanOrEqual, SQLBind(now)) }
                .orderBy("run_at").limit(rows)
            // SQLite has one writer at a time, and the transaction around this is it.
            return kind == .postgres ? chosen.lockingClause(SQLRaw("FOR UPDATE SKIP LOCKED")) : chosen
        }
        // On PostgreSQL the chosen ids are handed over as an array: as `IN (subquery)` the planner may
        // join them by hashing a scan of the whole table, dead rows of sent jobs too.
        let chosen: any SQLExpression =
            kind == .postgres
            ? SQLBinaryExpression(
                SQLColumn("id"), .equal, SQLFunction("ANY", args: SQLList([SQLRaw("ARRAY"), due], separator: SQLRaw(""))))
            : SQLBinaryExpression(SQLColumn("id"), .in, due)
        let leased = try await sql.update("push_jobs").set("leased_until", to: SQLBind(leaseUntil)).where(chosen)
            .returning(Self.columns.map { SQLColumn($0) }).all()
        var claimed: [PushJob] = [], spent: [PushJobID] = []
        for row in leased {
            let jobs = try Self.jobs(in: row)
            // A shared row whose devices left were all withdrawn has nothing more to send.
            if jobs.isEmpty { spent.append(try row.typedID("id")) }
            claimed += jobs
        }
        for slice in spent.statementSlices() {
            try await sql.delete(from: "push_jobs").where("id", .in, SQLBind.group(slice.map(\.description))).run()
        }
        // RETURNING answers the leased rows in no set order; ids are time-ordered, so sorting by them
        // sends the oldest first (and a shared row's devices in their order).
        return claimed.sorted { ($0.id.uuid, $0.shared?.index ?? 0) < ($1.id.uuid, $1.shared?.index ?? 0) }
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

    func advance(_ row: PushJobID, answered: Int, of devices: Int, leaseUntil: Date, on sql: any SQLDatabase) async throws {
        guard answered < devices else {
            try await sql.delete(from: "push_jobs").where("id", .equal, SQLBind(row.description)).run()
            return
        }
        try await sql.update("push_jobs").set("answered", to: SQLBind(answered)).set("leased_until", to: SQLBind(leaseUntil))
            .where("id", .equal, SQLBind(row.description)).run()
    }

    func setApart(_ job: PushJob, state: PushJobState, runAt: Date, error: String, at now: Date, on sql: any SQLDatabase) async throws {
        var own = job
        (own.id, own.shared, own.attempts, own.runAt) = (.timeOrdered(at: now), nil, job.attempts + 1, runAt)
        try await sql.insert(into: "push_jobs").columns(Self.columns + ["state", "last_error", "finished_at"])
            .values(try Self.values(of: own, state: state) + [SQLBind(error), SQLBind(state == .pending ? nil : now)]).run()
    }

    func dropPending(token: String, reason: String, at now: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("push_jobs").set("state", to: SQLBind(PushJobState.dropped.rawValue)).set("last_error", to: SQLBind(reason))
            .set("finished_at", to: SQLBind(now)).where("token", .equal, SQLBind(token))
            .where("state", .equal, SQLBind(PushJobState.pending.rawValue)).run()
        try await withdrawShared(mentioning: token, on: sql) { $0.token == token }
    }

    func withdraw(_ user: UserID, on sql: any SQLDatabase) async throws {
        try await withdrawShared(mentioning: user.description, on: sql) { $0.userId == user }
    }

    func nextDue(on sql: any SQLDatabase) async throws -> Date? {
        // A leased job is due again when its lease runs out, if that is later.
        try await sql.raw(
            "SELECT MIN(CASE WHEN leased_until > run_at THEN leased_until ELSE run_at END) AS due FROM push_jobs WHERE state = 'pending'"
        ).first()?.decode(column: "due", as: Date?.self)
    }

    /// Blanks the pending shared rows' devices `withdrawn` picks (found by `text` in the row). A
    /// device's place stays, blank, so a worker sending the row meanwhile still counts its answers right.
    private func withdrawShared(mentioning text: String, on sql: any SQLDatabase, _ withdrawn: (PushTarget) -> Bool) async throws {
        let rows = try await sql.raw(
            "SELECT id, targets FROM push_jobs WHERE state = 'pending' AND targets LIKE \(bind: "%\(text)%")"
        ).all()
        for row in rows {
            let targets = try row.requiredJSON("targets", as: [PushTarget?].self)
            let kept = targets.map { $0.flatMap { withdrawn($0) ? nil : $0 } }
            guard kept != targets else { continue }
            try await sql.update("push_jobs").set("targets", to: SQLBind(try StoredJSON.text(kept)))
                .where("id", .equal, try row.decode(column: "id", as: String.self)).run()
        }
    }

    /// The jobs in the order given, gathered by the content they show (a push shared by its devices has one).
    private static func alike(_ jobs: [PushJob]) -> [[PushJob]] {
        var order: [NotificationID] = [], byContent: [NotificationID: [PushJob]] = [:]
        for job in jobs {
            if byContent[job.content.id] == nil { order.append(job.content.id) }
            byContent[job.content.id, default: []].append(job)
        }
        return order.map { byContent[$0]! }
    }

    /// A row's values in `columns` order and its state; a shared row keeps its devices in `targets`,
    /// with no one's token or id in the columns of a single device.
    private static func values(of job: PushJob, state: PushJobState, sharedBy targets: [PushTarget]? = nil) throws -> [any SQLExpression] {
        let content = job.content, device = job.device
        let single = targets == nil
        return [
            SQLBind(job.id.description), SQLBind(content.id.description), SQLBind(single ? job.recipient.description : ""),
            SQLBind(content.category.rawValue), SQLBind(content.title), SQLBind(content.body), SQLBind(try StoredJSON.text(content.data)),
            SQLBind(single ? device.token : ""), SQLBind(single ? device.platform.rawValue : ""),
            SQLBind(single ? device.environment?.rawValue : nil), SQLBind(single ? device.topic : nil),
            SQLBind(job.urgent), SQLBind(job.timeSensitive), SQLBind(job.attempts), SQLBind(job.runAt), SQLBind(job.expiresAt),
            SQLBind(job.trace?.traceparent), SQLBind(job.trace?.tracestate),
            SQLBind(try targets.map { try StoredJSON.text($0) }), SQLBind(targets?.count ?? 1), SQLBind(0), SQLBind(state.rawValue),
        ]
    }

    /// A single row's job, or a shared row's devices not yet answered (nor withdrawn), each as a job.
    private static func jobs(in row: any SQLRow) throws -> [PushJob] {
        let id: PushJobID = try row.typedID("id")
        let content = PushContent(
            id: try row.typedID("notification_id"), category: try row.enumValue("category"),
            title: try row.decode(column: "title", as: String.self), body: try row.decode(column: "body", as: String.self),
            data: try row.requiredJSON("data", as: NotificationData.self))
        let (urgent, timeSensitive) = (
            try row.decode(column: "urgent", as: Bool.self), try row.decode(column: "time_sensitive", as: Bool.self)
        )
        let (attempts, runAt) = (try row.decode(column: "attempts", as: Int.self), try row.decode(column: "run_at", as: Date.self))
        let expiresAt = try row.decode(column: "expires_at", as: Date.self)
        let trace = CarriedTrace(
            traceparent: try row.decode(column: "traceparent", as: String?.self),
            tracestate: try row.decode(column: "tracestate", as: String?.self))
        func job(to recipient: UserID, _ device: Device, shared: SharedRow? = nil) -> PushJob {
            PushJob(
                id: id, content: content, recipient: recipient, device: device, urgent: urgent, timeSensitive: timeSensitive,
                attempts: attempts, runAt: runAt, expiresAt: expiresAt, trace: trace, shared: shared)
        }
        guard let targets = try row.json("targets", as: [PushTarget?].self) else {
            let device = Device(
                platform: try row.enumValue("platform"), token: try row.decode(column: "token", as: String.self),
                environment: try row.decode(column: "environment", as: String?.self).flatMap(APNsEnvironment.init(rawValue:)),
                topic: try row.decode(column: "topic", as: String?.self), registeredAt: Date(timeIntervalSince1970: 0))
            return [job(to: try row.typedID("user_id"), device)]
        }
        let answered = try row.decode(column: "answered", as: Int.self)
        return targets.indices.dropFirst(answered).compactMap { index in
            targets[index].map {
                job(to: $0.userId, $0.device, shared: SharedRow(index: index, answered: answered, devices: targets.count))
            }
        }
    }
}
