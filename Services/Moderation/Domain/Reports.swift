import Contracts
import Foundation
import Logging
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// Players' reports. A report names something the reporter can see (its module says so, and gives
/// it as it is now, which the case keeps); reports of one subject gather in its open case; a repeat
/// answers the first report; a player makes at most `reportsPerHour`. A new case is announced to
/// the moderators (`moderation.case.opened`, which notify delivers). After `hideAfter` distinct
/// reporters the subject is hidden until a moderator decides (a message withheld by chat; a team,
/// league or game shown to its managers only); a player is only marked so on the case.
struct Reports: Sendable {
    let database: Database
    let store: any CaseStore
    let subjects: Subjects
    let dependencies: ServiceDependencies
    let settings: ModerationSettings
    let moderators: any ModeratorStore
    let logger: Logger
    var outbox: Outbox { Outbox(now: now) }
    let now: @Sendable () -> Date

    /// The report and whether this call made it.
    func report(_ request: ReportRequest, by reporter: UserID, requestID: String?) async throws -> (Report, created: Bool) {
        let subject = request.subject
        if let first = try await database.read({ sql in try await store.report(by: reporter, about: subject, on: sql) }) {
            return (first, false)
        }
        let at = now()
        // A first look spares a player over the limit the call for the subject; the count that holds
        // is taken again below, under the reporter's lock, with the report it limits.
        try await database.read { sql in try await requireUnderLimit(reporter, at: at, on: sql) }
        guard let snapshot = try await subjects.snapshot(of: subject, seenBy: reporter, requestID: requestID) else {
            throw CommonError.notFound("No \(subject.type.rawValue) with id \(subject.id) that you can see.")
        }
        let note = request.note.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        let report = Report(id: .timeOrdered(at: at), subject: subject, reason: request.reason, note: note, status: .open, createdAt: at)
        let created = try await database.transaction { sql in
            try await Database.lock("moderation.reports.\(reporter)", on: sql)
            try await requireUnderLimit(reporter, at: at, on: sql)
            let candidate = StoredCase(
                id: .timeOrdered(at: at), subject: subject, ownerId: snapshot.content.ownerId, status: .open, openedAt: at,
                content: snapshot.content, context: snapshot.context, hidden: false)
            let opened = try await store.open(candidate, on: sql)
            if opened.id == candidate.id {
                try await outbox.append(
                    ModerationEvent.caseOpened, aggregateID: opened.id.description,
                    payload: ModerationEvent.CaseOpened(
                        caseId: opened.id, subject: subject, reason: request.reason,
                        moderatorIds: try await moderators.all(on: sql).map(\.userId)),
                    on: sql)
            }
            guard try await store.insert(report, in: opened.id, by: reporter, on: sql) else { return false }
            let reporters = Set(try await store.reports(in: opened.id, on: sql).map(\.reporter))
            if !opened.hidden, reporters.count >= settings.hideAfter {
                try await store.setHidden(opened.id, on: sql)
                if Cases.hiddenWhenReported.contains(subject.type) {
                    try await outbox.append(
                        ModerationEvent.subjectHidden, aggregateID: subject.id.description,
                        payload: ModerationEvent.SubjectHidden(subject: subject, hidden: true), on: sql)
                }
                logger.notice("case \(opened.id): \(reporters.count) reporters, hidden until a moderator decides")
            }
            return true
        }
        guard created else {
            // The same reporter's other request made it first.
            let first = try await database.read { sql in try await store.report(by: reporter, about: subject, on: sql) }
            return (try first.orMissing(report.id), false)
        }
        if request.block == true, let owner = snapshot.content.ownerId, owner != reporter, [.message, .user].contains(subject.type) {
            try await block(owner, by: reporter, requestID: requestID)
        }
        return (report, true)
    }

    /// A 429 once `reporter` has made `reportsPerHour` reports in the hour before `at`.
    private func requireUnderLimit(_ reporter: UserID, at: Date, on sql: any SQLDatabase) async throws {
        let made = try await store.reportCount(by: reporter, since: at.addingTimeInterval(-3600), on: sql)
        guard made < settings.reportsPerHour else {
            throw CommonError.rateLimited(retryAfterSeconds: 600, policy: settings.reportPolicy)
        }
    }

    func mine(_ reporter: UserID, page: PageRequest) async throws -> Page<Report> {
        let cursor = try TimeCursor(page)
        let rows = try await database.read { sql in try await store.reports(by: reporter, after: cursor, limit: page.limit + 1, on: sql) }
        return page.page(rows) { TimeCursor(time: $0.createdAt, id: $0.id).encoded }
    }

    private func block(_ player: UserID, by reporter: UserID, requestID: String?) async throws {
        _ = try await InternalClient(.chat, dependencies: dependencies).call(
            ChatAPI.Internal.block, path: [reporter, player], requestID: requestID)
    }
}
