public import Contracts
public import Foundation
public import SQLKit
public import ServerContracts
public import ServiceStore

/// The teams, leagues and games moderation hid (`moderation.subject.hidden`), as the module that holds
/// them keeps the list: such a subject is shown to its managers alone (marked `hidden`), and to
/// anyone else it does not exist (404, left out of lists). Kept beside the module's own tables, so
/// a subject shown again is exactly as it was.
public struct HiddenSubjects: Sendable {
    public init() {}

    /// Applies moderation's event when it is about one of `kept`, the subject types this module shows.
    public func apply(_ event: ModerationEvent.SubjectHidden, keeping kept: Set<SubjectType>, on sql: any SQLDatabase) async throws {
        guard kept.contains(event.subject.type) else { return }
        let type = SQLBind(event.subject.type.rawValue), id = SQLBind(event.subject.id.description)
        if event.hidden {
            try await sql.insert(into: "hidden_subjects").columns("subject_type", "subject_id").values(type, id)
                .ignoringConflicts(with: ["subject_type", "subject_id"]).run()
        } else {
            try await sql.delete(from: "hidden_subjects").where("subject_type", .equal, type).where("subject_id", .equal, id).run()
        }
    }

    /// A condition that leaves out the rows whose `id` column names a hidden subject of `type`, for a
    /// query that reads many of them (search's candidates): the store probes its list for each row
    /// instead of being sent every id.
    public static func notHidden(_ type: SubjectType, id column: SQLColumn) -> SQLQueryString {
        "NOT EXISTS (SELECT 1 FROM hidden_subjects WHERE subject_type = \(bind: type.rawValue) AND subject_id = \(column))"
    }

    /// Which of `ids` (of `type`) are hidden.
    public func hidden(_ type: SubjectType, among ids: [UUID], on sql: any SQLDatabase) async throws -> Set<UUID> {
        guard !ids.isEmpty else { return [] }
        var hidden: Set<UUID> = []
        for chunk in ids.statementSlices() {
            let rows = try await sql.select().column("subject_id").from("hidden_subjects")
                .where("subject_type", .equal, SQLBind(type.rawValue))
                .where("subject_id", .in, SQLBind.group(chunk.map { $0.lowercasedString })).all()
            for row in rows { if let id = UUID(uuidString: try row.decode(column: "subject_id", as: String.self)) { hidden.insert(id) } }
        }
        return hidden
    }

    public func isHidden(_ type: SubjectType, _ id: UUID, on sql: any SQLDatabase) async throws -> Bool {
        try await !hidden(type, among: [id], on: sql).isEmpty
    }

    /// `shown` without what moderators hid, but for its manager (`manager`), who sees it marked `hidden`.
    public func unhidden<Subject>(
        _ shown: [Subject], _ type: SubjectType, for viewer: UserID, id: (Subject) -> UUID, manager: (Subject) -> UserID,
        marked hidden: WritableKeyPath<Subject, Bool?>, on sql: any SQLDatabase
    ) async throws -> [Subject] {
        let hiddenIDs = try await self.hidden(type, among: shown.map(id), on: sql)
        guard !hiddenIDs.isEmpty else { return shown }
        return shown.compactMap { subject in
            guard hiddenIDs.contains(id(subject)) else { return subject }
            guard manager(subject) == viewer else { return nil }
            var marked = subject
            marked[keyPath: hidden] = true
            return marked
        }
    }
}

extension Migration {
    /// `hidden_subjects`: what moderation hid, for `HiddenSubjects`.
    public static func hiddenSubjects(version: Int) -> Migration {
        Migration(version: version, name: "subjects hidden by moderators") { _ in
            ["CREATE TABLE hidden_subjects (subject_type TEXT NOT NULL, subject_id TEXT NOT NULL, PRIMARY KEY (subject_type, subject_id))"]
        }
    }
}
