import Contracts
import Foundation
import Logging
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// Moderators' work: the queue of cases, oldest first, and deciding one. A decision closes the case
/// in the transaction that records it in the audit trail, sets its reports' outcome and publishes
/// `moderation.case.decided`, so the reporters and the owner are told and the decision is carried
/// out; of two moderators deciding one case at once, the second is told it is closed.
struct Cases: Sendable {
    let database: Database
    let store: any CaseStore
    let moderators: Moderators
    /// How soon a case should be decided; open cases older than this are overdue.
    let responseTime: TimeInterval
    let logger: Logger
    var outbox: Outbox { Outbox(now: now) }
    let now: @Sendable () -> Date
    /// How many earlier actions against the owner a case shows.
    static let historyShown = 20
    /// What is hidden rather than tombstoned: shown to its managers alone.
    static let hideable: Set<SubjectType> = [.team, .league, .game]
    /// What enough reporters hide until a moderator decides: those, and a message (withheld by chat).
    static let hiddenWhenReported: Set<SubjectType> = hideable.union([.message])

    /// `overdue`: only open cases older than the response time.
    func queue(_ status: CaseStatus, overdue: Bool, page: PageRequest, for identity: Identity) async throws -> Page<ModerationCase> {
        try await moderators.require(identity)
        let cursor = try TimeCursor(page)
        let openedBefore = overdue ? now().addingTimeInterval(-responseTime) : nil
        return try await database.read { sql in
            let rows = try await store.cases(
                overdue ? .open : status, openedBefore: openedBefore, after: cursor, limit: page.limit + 1, on: sql)
            var shown: [ModerationCase] = []
            for stored in rows.prefix(page.limit) { shown.append(try await view(stored, on: sql)) }
            let next = rows.count > page.limit ? rows.prefix(page.limit).last.map { TimeCursor(time: $0.openedAt, id: $0.id).encoded } : nil
            return Page(items: shown, nextCursor: next)
        }
    }

    /// One case, open or closed, as the queue shows it.
    func one(_ id: CaseID, for identity: Identity) async throws -> ModerationCase {
        try await moderators.require(identity)
        return try await database.read { sql in try await view(try await store.case(id, on: sql).orMissing(id), on: sql) }
    }

    /// The audit trail, newest first: `before` is the `seq` the previous page ended at.
    func trail(before seq: Int64?, limit: Int, for identity: Identity) async throws -> [(seq: Int64, action: CaseAction)] {
        try await moderators.require(identity)
        return try await database.read { sql in try await store.trail(before: seq, limit: limit, on: sql) }
    }

    /// Every way a decision's fields do not fit together, all at once.
    static func problems(in request: CaseActionRequest, reason: String, at now: Date) -> [Problem.FieldError] {
        var problems: [Problem.FieldError] = []
        if let problem = ModerationLimits.reason.problem(reason) { problems.append(.invalid("reason", ProblemText(english: problem))) }
        switch (request.action, request.until) {
        case (.suspend, nil): problems.append(.invalid("until", "is required to suspend"))
        case (.suspend, let until?) where until <= now: problems.append(.invalid("until", "must be in the future"))
        case (.suspend, _): break
        case (_, .some): problems.append(.invalid("until", "goes with suspend only"))
        case (_, nil): break
        }
        if request.removeMessages == true, request.action != .suspend, request.action != .ban {
            problems.append(.invalid("removeMessages", "goes with suspend or ban only"))
        }
        return problems
    }

    func decide(_ id: CaseID, _ request: CaseActionRequest, by identity: Identity) async throws -> ModerationCase {
        try await moderators.require(identity)
        let at = now()
        // The API's schema holds a reason to this rule already; the console's form is checked here, so
        // that its page can say what is wrong.
        let reason = request.reason.trimmingBlanks
        try FieldRules.require(Self.problems(in: request, reason: reason, at: at))
        return try await database.transaction { sql in
            let stored = try await store.case(id, on: sql).orMissing(id)
            guard try await store.close(id, at: at, on: sql) else { throw ModerationError.caseClosed(id) }
            let action = CaseAction(
                caseId: id, action: request.action, reason: reason, until: request.until, moderatorId: identity.userID, at: at)
            try await store.record(action, ownerID: stored.ownerId, on: sql)
            try await store.decideReports(in: id, as: request.action == .dismiss ? .dismissed : .actioned, at: at, on: sql)
            let reporters = try await store.reports(in: id, on: sql).map(\.reporter)
            if let hidden = Self.hiddenAfter(request.action, subject: stored.subject.type, wasHidden: stored.hidden) {
                try await outbox.append(
                    ModerationEvent.subjectHidden, aggregateID: stored.subject.id.description,
                    payload: ModerationEvent.SubjectHidden(subject: stored.subject, hidden: hidden), on: sql)
            }
            try await outbox.append(
                ModerationEvent.caseDecided, aggregateID: id.description,
                payload: ModerationEvent.CaseDecided(
                    caseId: id, subject: stored.subject, action: request.action, reason: reason, until: request.until,
                    ownerId: stored.ownerId, reporterIds: reporters, removeMessages: request.removeMessages),
                on: sql)
            logger.notice("case \(id) decided: \(request.action.rawValue) by \(identity.userID)")
            return try await view(try await store.case(id, on: sql).orMissing(id), on: sql)
        }
    }

    /// Whether a decision hides its subject (true), shows it again (false), or leaves it as it is
    /// (nil): a removed team, league or game is hidden; what enough reporters hid comes back after
    /// any other decision; a removed message becomes a tombstone through `caseDecided` instead.
    static func hiddenAfter(_ action: ModerationAction, subject: SubjectType, wasHidden: Bool) -> Bool? {
        if action == .remove { return hideable.contains(subject) ? true : nil }
        return wasHidden && hiddenWhenReported.contains(subject) ? false : nil
    }

    /// The open queue's oldest case and how many are overdue, for the gauges.
    func queueAge() async throws -> (oldest: Date?, overdue: Int) {
        let cutoff = now().addingTimeInterval(-responseTime)
        return try await database.read { sql in
            (try await store.oldestOpen(on: sql), try await store.openCount(openedBefore: cutoff, on: sql))
        }
    }

    private func view(_ stored: StoredCase, on sql: any SQLDatabase) async throws -> ModerationCase {
        let reports = try await store.reports(in: stored.id, on: sql).map(\.report)
        let counts = Dictionary(reports.map { ($0.reason, 1) }, uniquingKeysWith: +)
        let reasons = counts.keys.sorted { (counts[$0]!, $1.rawValue) > (counts[$1]!, $0.rawValue) }
        var history: [CaseAction] = []
        if let owner = stored.ownerId {
            history = try await store.actions(against: owner, excluding: stored.id, limit: Self.historyShown, on: sql)
        }
        return ModerationCase(
            id: stored.id, subject: stored.subject, status: stored.status, openedAt: stored.openedAt, closedAt: stored.closedAt,
            reportCount: reports.count, reasons: reasons, notes: reports.compactMap(\.note), content: stored.content,
            context: stored.context, hidden: stored.hidden, actions: try await store.actions(in: stored.id, on: sql),
            ownerHistory: history)
    }
}
