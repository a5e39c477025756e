public import Foundation

// Wire types of reports and moderation.

public enum ReportTag: NamedThing { public static let noun = "report" }
public enum CaseTag: NamedThing { public static let noun = "case" }
public enum SubjectTag: NamedThing { public static let noun = "subject" }
public typealias ReportID = TypedID<ReportTag>
public typealias CaseID = TypedID<CaseTag>
/// The id of what is reported: a message's, a player's, a team's, a league's or a game's.
public typealias SubjectID = TypedID<SubjectTag>

/// What a report can be about, and the module that holds it.
public enum SubjectType: String, Codable, Sendable, CaseIterable, WireEnum {
    case message, user, team, league, game

    public var owner: ServiceModule {
        switch self {
        case .message: .chat
        case .user: .auth
        case .team, .league: .catalog
        case .game: .games
        }
    }
}

public struct ReportSubject: Codable, Hashable, Sendable {
    public var type: SubjectType
    public var id: SubjectID
    public init(type: SubjectType, id: SubjectID) {
        self.type = type
        self.id = id
    }
}

extension ReportSubject {
    public static func message(_ id: ChatMessageID) -> ReportSubject { ReportSubject(type: .message, id: SubjectID(id.uuid)) }
    public static func player(_ id: UserID) -> ReportSubject { ReportSubject(type: .user, id: SubjectID(id.uuid)) }
    public static func team(_ id: TeamID) -> ReportSubject { ReportSubject(type: .team, id: SubjectID(id.uuid)) }
    public static func league(_ id: LeagueID) -> ReportSubject { ReportSubject(type: .league, id: SubjectID(id.uuid)) }
    public static func game(_ id: GameID) -> ReportSubject { ReportSubject(type: .game, id: SubjectID(id.uuid)) }
}

public enum ReportReason: String, Codable, Sendable, CaseIterable, WireEnum {
    case spam, harassment, hate, sexual, violence, selfHarm, other
}

/// `POST /v1/reports`. `block` also blocks the player reported, or the message's sender.
public struct ReportRequest: Codable, Equatable, Sendable, FieldConstraints {
    public var subject: ReportSubject
    public var reason: ReportReason
    public var note: String?
    public var block: Bool?

    public init(subject: ReportSubject, reason: ReportReason, note: String? = nil, block: Bool? = nil) {
        self.subject = subject
        self.reason = reason
        self.note = note
        self.block = block
    }

    public static var constraints: [String: JSONSchema] { ["note": ModerationLimits.note.schema] }
}

public enum ReportStatus: String, Codable, Sendable, CaseIterable, WireEnum {
    /// Waiting for a moderator.
    case open
    /// A moderator acted on what it reported.
    case actioned
    /// A moderator found nothing to act on.
    case dismissed
}

/// A report as its reporter sees it, with the outcome once a moderator decided.
public struct Report: Codable, Equatable, Sendable {
    public var id: ReportID
    public var subject: ReportSubject
    public var reason: ReportReason
    public var note: String?
    public var status: ReportStatus
    public var createdAt: Date
    public var decidedAt: Date?

    public init(
        id: ReportID, subject: ReportSubject, reason: ReportReason, note: String?, status: ReportStatus, createdAt: Date,
        decidedAt: Date? = nil
    ) {
        self.id = id
        self.subject = subject
        self.reason = reason
        self.note = note
        self.status = status
        self.createdAt = createdAt
        self.decidedAt = decidedAt
    }
}

/// What a subject showed when it was first reported, kept so that an edit or a delete cannot hide
/// it: its author or owner, its text (a message's words; a name with its description), and when.
public struct SubjectContent: Codable, Equatable, Sendable {
    public var type: SubjectType
    public var id: SubjectID
    /// The message's sender, the team's or league's manager, the game's organiser, the player.
    public var ownerId: UserID?
    public var ownerName: String?
    public var text: String
    public var at: Date?
    /// A message's photos as it was reported: an administrator reads their sizes through the gateway.
    public var attachments: [Media]?

    public init(
        type: SubjectType, id: SubjectID, ownerId: UserID?, ownerName: String?, text: String, at: Date?, attachments: [Media]? = nil
    ) {
        self.attachments = attachments
        self.type = type
        self.id = id
        self.ownerId = ownerId
        self.ownerName = ownerName
        self.text = text
        self.at = at
    }
}

public enum ModerationAction: String, Codable, Sendable, CaseIterable, WireEnum {
    /// Nothing to act on; the reporters are told.
    case dismiss
    /// The content goes: a message becomes a tombstone, a team, league or game is hidden from all but its managers.
    case remove
    /// The player is warned.
    case warn
    /// The player cannot sign in or use Huddle until `until`.
    case suspend
    /// The player cannot sign in or use Huddle again.
    case ban
}

/// `POST /v1/moderation/cases/{id}/actions`. `suspend` needs `until`, in the future; with `suspend`
/// or `ban`, `removeMessages` also removes every chat message of the player.
public struct CaseActionRequest: Codable, Equatable, Sendable, FieldConstraints {
    public var action: ModerationAction
    public var reason: String
    public var until: Date?
    public var removeMessages: Bool?

    public init(action: ModerationAction, reason: String, until: Date? = nil, removeMessages: Bool? = nil) {
        self.action = action
        self.reason = reason
        self.until = until
        self.removeMessages = removeMessages
    }

    public static var constraints: [String: JSONSchema] { ["reason": ModerationLimits.reason.schema] }
    public static var note: String? {
        "until is required with suspend, and must be in the future; removeMessages goes with suspend or ban"
    }
}

/// One entry of the audit trail: who did what to a case, why, and when.
public struct CaseAction: Codable, Equatable, Sendable {
    public var caseId: CaseID
    public var action: ModerationAction
    public var reason: String
    public var until: Date?
    public var moderatorId: UserID
    public var at: Date

    public init(caseId: CaseID, action: ModerationAction, reason: String, until: Date?, moderatorId: UserID, at: Date) {
        self.caseId = caseId
        self.action = action
        self.reason = reason
        self.until = until
        self.moderatorId = moderatorId
        self.at = at
    }
}

public enum CaseStatus: String, Codable, Sendable, CaseIterable, WireEnum {
    case open, closed
}

/// Every report of one subject while it is open: what moderators work on.
public struct ModerationCase: Codable, Equatable, Sendable {
    public var id: CaseID
    public var subject: ReportSubject
    public var status: CaseStatus
    public var openedAt: Date
    public var closedAt: Date?
    public var reportCount: Int
    /// Each reason given, most given first.
    public var reasons: [ReportReason]
    /// The reporters' notes.
    public var notes: [String]
    /// The subject as it was when first reported.
    public var content: SubjectContent
    /// For a message, the messages around it as they were.
    public var context: [SubjectContent]?
    /// Hidden from everyone but its owner after enough reporters, until a moderator decides.
    public var hidden: Bool
    /// What was done on this case.
    public var actions: [CaseAction]
    /// What was done before to the subject's owner, on other cases, newest first.
    public var ownerHistory: [CaseAction]

    public init(
        id: CaseID, subject: ReportSubject, status: CaseStatus, openedAt: Date, closedAt: Date?, reportCount: Int,
        reasons: [ReportReason], notes: [String], content: SubjectContent, context: [SubjectContent]?, hidden: Bool,
        actions: [CaseAction], ownerHistory: [CaseAction]
    ) {
        self.id = id
        self.subject = subject
        self.status = status
        self.openedAt = openedAt
        self.closedAt = closedAt
        self.reportCount = reportCount
        self.reasons = reasons
        self.notes = notes
        self.content = content
        self.context = context
        self.hidden = hidden
        self.actions = actions
        self.ownerHistory = ownerHistory
    }
}

/// A player who holds the moderator role.
public struct Moderator: Codable, Equatable, Sendable {
    public var userId: UserID
    public var grantedBy: UserID?
    public var grantedAt: Date

    public init(userId: UserID, grantedBy: UserID?, grantedAt: Date) {
        self.userId = userId
        self.grantedBy = grantedBy
        self.grantedAt = grantedAt
    }
}

/// What a reporter and a moderator write: kept and shown to other people, so held to the rule for
/// text people type (no control characters; a reason not blank).
public enum ModerationLimits {
    public static let note = TextRule(0...500)
    public static let reason = TextRule(1...500)
}
