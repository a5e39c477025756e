import Contracts
import Foundation
import Mustache
import ServerContracts

/// What each console page shows, worked out from the cases (pure: times and names come in), and
/// rendered through `ConsoleTemplates`.
struct ConsolePages: Sendable {
    let library: MustacheLibrary
    let now: Date
    /// Cases open longer than this are overdue.
    let responseTime: TimeInterval

    struct Header {
        let csrf: String
        let name: String
    }

    func page(title: String, template: String, _ view: Any, session: Header?, error: String? = nil) -> HTMLPage {
        let body = library.render(view, withTemplate: template) ?? ""
        let layout = Layout(
            title: title, style: ConsoleTemplates.style, script: ConsoleTemplates.script, session: session, error: error, body: body)
        return HTMLPage(library.render(layout, withTemplate: "layout") ?? "")
    }

    private struct Layout {
        let title: String
        let style: String
        let script: String
        let session: Header?
        let error: String?
        let body: String
    }

    func signIn(csrf: String, email: String = "", error: String? = nil) -> HTMLPage {
        page(title: "Sign in", template: "signIn", SignInView(csrf: csrf, email: email), session: nil, error: error)
    }

    private struct SignInView {
        let csrf: String
        let email: String
    }

    // MARK: The queue

    func queue(_ page: Page<ModerationCase>, status: CaseStatus, overdue: Bool, session: Header) -> HTMLPage {
        let heading = overdue ? "Overdue cases" : status == .open ? "Open cases" : "Closed cases"
        let summary =
            overdue
            ? "Open for longer than \(Self.duration(responseTime)), oldest first."
            : status == .open ? "Oldest first: decide each within \(Self.duration(responseTime))." : "Decided cases, oldest first."
        let rows = page.items.map { item in
            QueueRow(
                href: "/admin/cases/\(item.id)", opened: Self.time(item.openedAt), age: Self.duration(now.timeIntervalSince(item.openedAt)),
                overdue: item.status == .open && now.timeIntervalSince(item.openedAt) > responseTime,
                subjectType: Self.noun(item.subject.type),
                hidden: item.hidden, status: item.status == .closed ? item.actions.last.map { Self.past($0.action) } : nil,
                reportCount: item.reportCount, reasons: Self.reasons(item.reasons), excerpt: Self.excerpt(item.content.text))
        }
        var next: String?
        if let cursor = page.nextCursor {
            var items = [URLQueryItem(name: "cursor", value: cursor)]
            if overdue { items.append(URLQueryItem(name: "overdue", value: "true")) }
            if status == .closed { items.append(URLQueryItem(name: "status", value: "closed")) }
            next = Self.href("/admin", items)
        }
        return self.page(
            title: heading, template: "queue",
            QueueView(heading: heading, summary: summary, cases: rows, hasCases: !rows.isEmpty, next: next), session: session)
    }

    private struct QueueView {
        let heading: String
        let summary: String
        let cases: [QueueRow]
        let hasCases: Bool
        let next: String?
    }

    private struct QueueRow {
        let href: String
        let opened: String
        let age: String
        let overdue: Bool
        let subjectType: String
        let hidden: Bool
        let status: String?
        let reportCount: Int
        let reasons: String
        let excerpt: String
    }

    // MARK: A case

    func caseDetail(_ item: ModerationCase, names: [UserID: String], session: Header, error: String? = nil, status: Int = 200)
        -> HTMLPage
    {
        let owner = item.content.ownerName ?? item.content.ownerId.map { names[$0] ?? $0.description } ?? "nobody"
        let reported = item.content.id
        let view = CaseView(
            subjectType: Self.noun(item.subject.type), opened: Self.time(item.openedAt),
            age: Self.duration(now.timeIntervalSince(item.openedAt)),
            reportCount: item.reportCount,
            statusText: item.status == .open ? "open" : "closed \(item.closedAt.map(Self.time) ?? "")", hidden: item.hidden,
            content: item.content.text, owner: owner, at: item.content.at.map(Self.time),
            context: Self.conversation(item).map {
                ContextRow(name: $0.ownerName ?? "", at: $0.at.map(Self.time) ?? "", text: $0.text, reported: $0.id == reported)
            },
            hasContext: !(item.context ?? []).isEmpty, reasons: Self.reasons(item.reasons), notes: item.notes,
            actions: item.actions.map { action(row: $0, names: names) }, history: item.ownerHistory.map { action(row: $0, names: names) },
            open: item.status == .open, actionHref: "/admin/cases/\(item.id)/actions", csrf: session.csrf,
            choices: ModerationAction.allCases.map { Choice(value: $0.rawValue, label: Self.label($0, for: item.subject.type)) },
            lengths: SuspensionLength.allCases.map { Choice(value: $0.rawValue, label: $0.days == 1 ? "1 day" : "\($0.days) days") })
        return page(title: "Case", template: "case", view, session: session, error: error)
    }

    /// A reported message in its place among the messages around it (those sent before it, then after).
    static func conversation(_ item: ModerationCase) -> [SubjectContent] {
        guard var around = item.context, !around.isEmpty else { return [] }
        let sentAt = item.content.at ?? .distantPast
        let place = (around.lastIndex { ($0.at ?? .distantPast) <= sentAt }).map { $0 + 1 } ?? 0
        around.insert(item.content, at: place)
        return around
    }

    private struct CaseView {
        let subjectType: String
        let opened: String
        let age: String
        let reportCount: Int
        let statusText: String
        let hidden: Bool
        let content: String
        let owner: String
        let at: String?
        let context: [ContextRow]
        let hasContext: Bool
        let reasons: String
        let notes: [String]
        let actions: [ActionRow]
        let history: [ActionRow]
        let open: Bool
        let actionHref: String
        let csrf: String
        let choices: [Choice]
        let lengths: [Choice]
    }

    private struct ContextRow {
        let name: String
        let at: String
        let text: String
        let reported: Bool
    }

    private struct Choice {
        let value: String
        let label: String
    }

    struct ActionRow {
        let href: String
        let at: String
        let moderator: String
        let action: String
        let reason: String
        let until: String?
        let subjectType: String
    }

    func action(row action: CaseAction, names: [UserID: String], subject: SubjectType? = nil) -> ActionRow {
        ActionRow(
            href: "/admin/cases/\(action.caseId)", at: Self.time(action.at),
            moderator: names[action.moderatorId] ?? action.moderatorId.description,
            action: Self.past(action.action), reason: action.reason, until: action.until.map(Self.time),
            subjectType: subject.map(Self.noun) ?? "case")
    }

    // MARK: The audit trail

    func audit(_ rows: [ActionRow], next: String?, session: Header) -> HTMLPage {
        page(title: "Audit trail", template: "audit", AuditView(rows: rows, hasRows: !rows.isEmpty, next: next), session: session)
    }

    private struct AuditView {
        let rows: [ActionRow]
        let hasRows: Bool
        let next: String?
    }

    // MARK: Words

    static func time(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day().dateSeparator(.dash).time(includingFractionalSeconds: false)
                .timeSeparator(.colon).dateTimeSeparator(.space)) + " UTC"
    }

    /// "45 min", "3 h", "2 d".
    static func duration(_ seconds: TimeInterval) -> String {
        let minutes = max(0, Int(seconds / 60))
        if minutes < 120 { return "\(minutes) min" }
        if minutes < 48 * 60 { return "\(minutes / 60) h" }
        return "\(minutes / 1440) d"
    }

    static func excerpt(_ text: String, limit: Int = 140) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > limit ? String(line.prefix(limit)) + "…" : line
    }

    static func reasons(_ reasons: [ReportReason]) -> String {
        reasons.map { $0 == .selfHarm ? "self-harm" : $0.rawValue }.joined(separator: ", ")
    }

    static func noun(_ type: SubjectType) -> String { type == .user ? "player" : type.rawValue }

    static func past(_ action: ModerationAction) -> String {
        switch action {
        case .dismiss: "dismissed"
        case .remove: "removed"
        case .warn: "warned"
        case .suspend: "suspended"
        case .ban: "banned"
        }
    }

    /// What each action does to this kind of subject, as the form offers it.
    static func label(_ action: ModerationAction, for type: SubjectType) -> String {
        switch action {
        case .dismiss: "Dismiss: nothing to act on"
        case .remove:
            type == .message
                ? "Remove the message" : type == .user ? "Remove (nothing to hide for a player)" : "Hide it from all but its managers"
        case .warn: "Warn the player"
        case .suspend: "Suspend the player"
        case .ban: "Ban the player"
        }
    }

    static func href(_ path: String, _ items: [URLQueryItem]) -> String {
        var components = URLComponents()
        components.path = path
        components.queryItems = items
        return components.string ?? path
    }
}
