import Contracts
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

/// A case as stored: the reports and actions are read alongside when it is shown.
struct StoredCase: Sendable, Equatable {
    var id: CaseID
    var subject: ReportSubject
    var ownerId: UserID?
    var status: CaseStatus
    var openedAt: Date
    var closedAt: Date?
    var content: SubjectContent
    var context: [SubjectContent]?
    var hidden: Bool
}

/// Cases, their reports and their audit trail.
protocol CaseStore: Sendable {
    func openCase(about subject: ReportSubject, on sql: any SQLDatabase) async throws -> StoredCase?
    /// Opens a case, or answers the one another instance opened for the subject at the same moment.
    func open(_ stored: StoredCase, on sql: any SQLDatabase) async throws -> StoredCase
    func `case`(_ id: CaseID, on sql: any SQLDatabase) async throws -> StoredCase?
    /// Cases in `status` (opened before `openedBefore` when given), oldest first, after `cursor`.
    func cases(_ status: CaseStatus, openedBefore: Date?, after cursor: TimeCursor?, limit: Int, on sql: any SQLDatabase) async throws
        -> [StoredCase]
    func oldestOpen(on sql: any SQLDatabase) async throws -> Date?
    func openCount(openedBefore: Date, on sql: any SQLDatabase) async throws -> Int
    func setHidden(_ id: CaseID, on sql: any SQLDatabase) async throws
    /// Closes the case if it is still open; false when someone closed it first.
    func close(_ id: CaseID, at: Date, on sql: any SQLDatabase) async throws -> Bool
    /// Open cases about `owner`'s content or about them.
    func openCases(ownedBy owner: UserID, on sql: any SQLDatabase) async throws -> [CaseID]

    func report(by reporter: UserID, about subject: ReportSubject, on sql: any SQLDatabase) async throws -> Report?
    /// Adds the report unless the reporter reported the subject before; true when it was added.
    func insert(_ report: Report, in caseID: CaseID, by reporter: UserID, on sql: any SQLDatabase) async throws -> Bool
    func reportCount(by reporter: UserID, since: Date, on sql: any SQLDatabase) async throws -> Int
    func reports(by reporter: UserID, after cursor: TimeCursor?, limit: Int, on sql: any SQLDatabase) async throws -> [Report]
    /// The reports of a case, with who made them, oldest first.
    func reports(in caseID: CaseID, on sql: any SQLDatabase) async throws -> [(reporter: UserID, report: Report)]
    func decideReports(in caseID: CaseID, as status: ReportStatus, at: Date, on sql: any SQLDatabase) async throws
    /// Moves `reporter`'s reports to `pseudonym`.
    func reassignReports(of reporter: UserID, to pseudonym: UserID, on sql: any SQLDatabase) async throws
    /// Every case whose owner is `user` or whose content or context names them.
    func cases(mentioning user: UserID, on sql: any SQLDatabase) async throws -> [StoredCase]
    /// Writes a case's content and context again.
    func redact(_ id: CaseID, content: SubjectContent, context: [SubjectContent]?, on sql: any SQLDatabase) async throws
    /// No case nor action of the audit trail is tied to `owner` any more; the actions and reasons stay.
    func forgetOwner(_ owner: UserID, on sql: any SQLDatabase) async throws

    func record(_ action: CaseAction, ownerID: UserID?, on sql: any SQLDatabase) async throws
    func actions(in caseID: CaseID, on sql: any SQLDatabase) async throws -> [CaseAction]
    /// Actions against `owner` on cases other than `excluding`, newest first.
    func actions(against owner: UserID, excluding: CaseID, limit: Int, on sql: any SQLDatabase) async throws -> [CaseAction]
    /// The audit trail: every action, newest first, those before `seq` (the `seq` of each comes with it).
    func trail(before seq: Int64?, limit: Int, on sql: any SQLDatabase) async throws -> [(seq: Int64, action: CaseAction)]
}

struct SQLCaseStore: CaseStore {
    private static let caseColumns = [
        "id", "subject_type", "subject_id", "owner_id", "status", "opened_at", "closed_at", "content", "context", "hidden",
    ]
    private static let reportColumns = [
        "id", "reporter_id", "subject_type", "subject_id", "reason", "note", "status", "created_at", "decided_at",
    ]

    func openCase(about subject: ReportSubject, on sql: any SQLDatabase) async throws -> StoredCase? {
        try await sql.select().columns(Self.caseColumns).from("cases").where("subject_type", .equal, SQLBind(subject.type.rawValue))
            .where("subject_id", .equal, SQLBind(subject.id.description)).where("status", .equal, SQLBind(CaseStatus.open.rawValue))
            .first().map(Self.decodeCase)
    }

    func open(_ stored: StoredCase, on sql: any SQLDatabase) async throws -> StoredCase {
        let encoder = HuddleJSON.encoder
        let inserted = try await sql.insert(into: "cases").columns(Self.caseColumns)
            .values(
                SQLBind(stored.id.description), SQLBind(stored.subject.type.rawValue), SQLBind(stored.subject.id.description),
                SQLBind(stored.ownerId?.description), SQLBind(stored.status.rawValue), SQLBind(stored.openedAt), SQLBind(stored.closedAt),
                SQLBind(String(decoding: try encoder.encode(stored.content), as: UTF8.self)),
                SQLBind(try stored.context.map { String(decoding: try encoder.encode($0), as: UTF8.self) }), SQLBind(stored.hidden)
            )
            // The open-subject index is partial, so no conflict target names it.
            .ignoringConflicts().returning("id").all()
        if !inserted.isEmpty { return stored }
        guard let other = try await openCase(about: stored.subject, on: sql) else { throw CommonError.internalError }
        return other
    }

    func `case`(_ id: CaseID, on sql: any SQLDatabase) async throws -> StoredCase? {
        try await sql.select().columns(Self.caseColumns).from("cases").where("id", .equal, SQLBind(id.description)).first()
            .map(Self.decodeCase)
    }

    func cases(_ status: CaseStatus, openedBefore: Date?, after cursor: TimeCursor?, limit: Int, on sql: any SQLDatabase) async throws
        -> [StoredCase]
    {
        var query = sql.select().columns(Self.caseColumns).from("cases").where("status", .equal, SQLBind(status.rawValue))
        if let openedBefore { query = query.where("opened_at", .lessThan, SQLBind(openedBefore)) }
        if let cursor { query = query.where(cursor.continuation(time: SQLColumn("opened_at"), id: SQLColumn("id"), descending: false)) }
        return try await query.orderBy("opened_at").orderBy("id").limit(limit).all().map(Self.decodeCase)
    }

    func oldestOpen(on sql: any SQLDatabase) async throws -> Date? {
        try await sql.select().column("opened_at").from("cases").where("status", .equal, SQLBind(CaseStatus.open.rawValue))
            .orderBy("opened_at").limit(1).first()?.decode(column: "opened_at", as: Date.self)
    }

    func openCount(openedBefore: Date, on sql: any SQLDatabase) async throws -> Int {
        try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("cases")
            .where("status", .equal, SQLBind(CaseStatus.open.rawValue)).where("opened_at", .lessThan, SQLBind(openedBefore))
            .first()?.decode(column: "n", as: Int.self) ?? 0
    }

    func setHidden(_ id: CaseID, on sql: any SQLDatabase) async throws {
        try await sql.update("cases").set("hidden", to: SQLBind(true)).where("id", .equal, SQLBind(id.description)).run()
    }

    func close(_ id: CaseID, at: Date, on sql: any SQLDatabase) async throws -> Bool {
        try await !sql.update("cases").set("status", to: SQLBind(CaseStatus.closed.rawValue)).set("closed_at", to: SQLBind(at))
            .where("id", .equal, SQLBind(id.description)).where("status", .equal, SQLBind(CaseStatus.open.rawValue))
            .returning("id").all().isEmpty
    }

    func openCases(ownedBy owner: UserID, on sql: any SQLDatabase) async throws -> [CaseID] {
        try await sql.select().column("id").from("cases").where("owner_id", .equal, SQLBind(owner.description))
            .where("status", .equal, SQLBind(CaseStatus.open.rawValue)).all().map { try $0.typedID("id") }
    }

    func report(by reporter: UserID, about subject: ReportSubject, on sql: any SQLDatabase) async throws -> Report? {
        try await sql.select().columns(Self.reportColumns).from("reports").where("reporter_id", .equal, SQLBind(reporter.description))
            .where("subject_type", .equal, SQLBind(subject.type.rawValue)).where("subject_id", .equal, SQLBind(subject.id.description))
            .first().map(Self.decodeReport)
    }

    func insert(_ report: Report, in caseID: CaseID, by reporter: UserID, on sql: any SQLDatabase) async throws -> Bool {
        try await !sql.insert(into: "reports")
            .columns("id", "case_id", "reporter_id", "subject_type", "subject_id", "reason", "note", "status", "created_at")
            .values(
                SQLBind(report.id.description), SQLBind(caseID.description), SQLBind(reporter.description),
                SQLBind(report.subject.type.rawValue), SQLBind(report.subject.id.description), SQLBind(report.reason.rawValue),
                SQLBind(report.note), SQLBind(report.status.rawValue), SQLBind(report.createdAt)
            )
            .ignoringConflicts(with: ["reporter_id", "subject_type", "subject_id"]).returning("id").all().isEmpty
    }

    func reportCount(by reporter: UserID, since: Date, on sql: any SQLDatabase) async throws -> Int {
        try await sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from("reports")
            .where("reporter_id", .equal, SQLBind(reporter.description)).where("created_at", .greaterThanOrEqual, SQLBind(since))
            .first()?.decode(column: "n", as: Int.self) ?? 0
    }

    func reports(by reporter: UserID, after cursor: TimeCursor?, limit: Int, on sql: any SQLDatabase) async throws -> [Report] {
        var query = sql.select().columns(Self.reportColumns).from("reports").where("reporter_id", .equal, SQLBind(reporter.description))
        if let cursor { query = query.where(cursor.continuation(time: SQLColumn("created_at"), id: SQLColumn("id"), descending: true)) }
        return try await query.orderBy("created_at", .descending).orderBy("id", .descending).limit(limit).all().map(Self.decodeReport)
    }

    func reports(in caseID: CaseID, on sql: any SQLDatabase) async throws -> [(reporter: UserID, report: Report)] {
        try await sql.select().columns(Self.reportColumns).from("reports").where("case_id", .equal, SQLBind(caseID.description))
            .orderBy("created_at").orderBy("id").all().map { (try $0.typedID("reporter_id"), try Self.decodeReport($0)) }
    }

    func decideReports(in caseID: CaseID, as status: ReportStatus, at: Date, on sql: any SQLDatabase) async throws {
        try await sql.update("reports").set("status", to: SQLBind(status.rawValue)).set("decided_at", to: SQLBind(at))
            .where("case_id", .equal, SQLBind(caseID.description)).run()
    }

    func reassignReports(of reporter: UserID, to pseudonym: UserID, on sql: any SQLDatabase) async throws {
        try await sql.update("reports").set("reporter_id", to: SQLBind(pseudonym.description))
            .where("reporter_id", .equal, SQLBind(reporter.description)).run()
    }

    func cases(mentioning user: UserID, on sql: any SQLDatabase) async throws -> [StoredCase] {
        // Content is JSON: the id as text finds it in the owner's field and in the context's.
        let pattern = SQLBind("%\(user.description)%")
        return try await sql.select().columns(Self.caseColumns).from("cases")
            .where("owner_id", .equal, SQLBind(user.description)).orWhere("content", .like, pattern).orWhere("context", .like, pattern)
            .all().map(Self.decodeCase)
    }

    func redact(_ id: CaseID, content: SubjectContent, context: [SubjectContent]?, on sql: any SQLDatabase) async throws {
        let encoder = HuddleJSON.encoder
        try await sql.update("cases").set("content", to: SQLBind(String(decoding: try encoder.encode(content), as: UTF8.self)))
            .set("context", to: SQLBind(try context.map { String(decoding: try encoder.encode($0), as: UTF8.self) }))
            .where("id", .equal, SQLBind(id.description)).run()
    }

    func forgetOwner(_ owner: UserID, on sql: any SQLDatabase) async throws {
        // Only the deleted player's: a case that merely quotes him (his message beside the one
        // reported) keeps its owner, whose history the next decision adds to.
        for table in ["cases", "case_actions"] {
            try await sql.update(table).set("owner_id", to: SQLLiteral.null).where("owner_id", .equal, SQLBind(owner.description)).run()
        }
    }

    func record(_ action: CaseAction, ownerID: UserID?, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "case_actions").columns("case_id", "owner_id", "action", "reason", "until", "moderator_id", "at")
            .values(
                SQLBind(action.caseId.description), SQLBind(ownerID?.description), SQLBind(action.action.rawValue), SQLBind(action.reason),
                SQLBind(action.until), SQLBind(action.moderatorId.description), SQLBind(action.at)
            ).run()
    }

    func actions(in caseID: CaseID, on sql: any SQLDatabase) async throws -> [CaseAction] {
        try await sql.select().columns("case_id", "action", "reason", "until", "moderator_id", "at").from("case_actions")
            .where("case_id", .equal, SQLBind(caseID.description)).orderBy("seq").all().map(Self.decodeAction)
    }

    func actions(against owner: UserID, excluding: CaseID, limit: Int, on sql: any SQLDatabase) async throws -> [CaseAction] {
        try await sql.select().columns("case_id", "action", "reason", "until", "moderator_id", "at").from("case_actions")
            .where("owner_id", .equal, SQLBind(owner.description)).where("case_id", .notEqual, SQLBind(excluding.description))
            .orderBy("seq", .descending).limit(limit).all().map(Self.decodeAction)
    }

    func trail(before seq: Int64?, limit: Int, on sql: any SQLDatabase) async throws -> [(seq: Int64, action: CaseAction)] {
        var query = sql.select().columns("seq", "case_id", "action", "reason", "until", "moderator_id", "at").from("case_actions")
        if let seq { query = query.where("seq", .lessThan, SQLBind(seq)) }
        return try await query.orderBy("seq", .descending).limit(limit).all().map { row in
            (try row.decode(column: "seq", as: Int64.self), try Self.decodeAction(row))
        }
    }

    private static func decodeCase(_ row: any SQLRow) throws -> StoredCase {
        let decoder = HuddleJSON.decoder
        let context = try row.decode(column: "context", as: String?.self)
        return StoredCase(
            id: try row.typedID("id"),
            subject: ReportSubject(
                type: SubjectType(rawValue: try row.decode(column: "subject_type", as: String.self)) ?? .message,
                id: try row.typedID("subject_id")),
            ownerId: try row.decode(column: "owner_id", as: String?.self).flatMap(UserID.init),
            status: CaseStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .open,
            openedAt: try row.decode(column: "opened_at", as: Date.self), closedAt: try row.decode(column: "closed_at", as: Date?.self),
            content: try decoder.decode(SubjectContent.self, from: Data(try row.decode(column: "content", as: String.self).utf8)),
            context: try context.map { try decoder.decode([SubjectContent].self, from: Data($0.utf8)) },
            hidden: try row.decode(column: "hidden", as: Bool.self))
    }

    private static func decodeReport(_ row: any SQLRow) throws -> Report {
        Report(
            id: try row.typedID("id"),
            subject: ReportSubject(
                type: SubjectType(rawValue: try row.decode(column: "subject_type", as: String.self)) ?? .message,
                id: try row.typedID("subject_id")),
            reason: ReportReason(rawValue: try row.decode(column: "reason", as: String.self)) ?? .other,
            note: try row.decode(column: "note", as: String?.self),
            status: ReportStatus(rawValue: try row.decode(column: "status", as: String.self)) ?? .open,
            createdAt: try row.decode(column: "created_at", as: Date.self), decidedAt: try row.decode(column: "decided_at", as: Date?.self))
    }

    private static func decodeAction(_ row: any SQLRow) throws -> CaseAction {
        CaseAction(
            caseId: try row.typedID("case_id"),
            action: ModerationAction(rawValue: try row.decode(column: "action", as: String.self)) ?? .dismiss,
            reason: try row.decode(column: "reason", as: String.self), until: try row.decode(column: "until", as: Date?.self),
            moderatorId: try row.typedID("moderator_id"), at: try row.decode(column: "at", as: Date.self))
    }
}
