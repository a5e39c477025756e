public import Contracts
public import Foundation

/// What moderation publishes: a moderator's decision on a case, for notify to tell the reporters and
/// the subject's owner, and for the subject's module and auth to carry it out.
public enum ModerationEvent {
    public static let caseDecided = EventType<CaseDecided>("moderation.case.decided", owner: .moderation)
    /// A team, league or game is hidden from everyone but its managers (enough reporters, until a
    /// moderator decides; or removed by one), or shown again (a hidden one's case dismissed).
    public static let subjectHidden = EventType<SubjectHidden>("moderation.subject.hidden", owner: .moderation)

    public struct SubjectHidden: Codable, Equatable, Sendable {
        public var subject: ReportSubject
        public var hidden: Bool
        public init(subject: ReportSubject, hidden: Bool) {
            self.subject = subject
            self.hidden = hidden
        }
    }

    /// A subject's first report opened a case: notify tells the moderators.
    public static let caseOpened = EventType<CaseOpened>("moderation.case.opened", owner: .moderation)

    public struct CaseOpened: Codable, Equatable, Sendable {
        public var caseId: CaseID
        public var subject: ReportSubject
        public var reason: ReportReason
        /// Who holds the moderator role now.
        public var moderatorIds: [UserID]

        public init(caseId: CaseID, subject: ReportSubject, reason: ReportReason, moderatorIds: [UserID]) {
            self.caseId = caseId
            self.subject = subject
            self.reason = reason
            self.moderatorIds = moderatorIds
        }
    }

    public struct CaseDecided: Codable, Equatable, Sendable {
        public var caseId: CaseID
        public var subject: ReportSubject
        public var action: ModerationAction
        public var reason: String
        /// With `suspend`: when it ends.
        public var until: Date?
        /// Whom the action is against: the message's sender, the team's manager, the player reported.
        public var ownerId: UserID?
        /// Everyone who reported the subject, to be told the outcome.
        public var reporterIds: [UserID]
        /// With `suspend` or `ban`: every chat message of the owner goes too.
        public var removeMessages: Bool?

        public init(
            caseId: CaseID, subject: ReportSubject, action: ModerationAction, reason: String, until: Date?, ownerId: UserID?,
            reporterIds: [UserID], removeMessages: Bool? = nil
        ) {
            self.caseId = caseId
            self.subject = subject
            self.action = action
            self.reason = reason
            self.until = until
            self.ownerId = ownerId
            self.reporterIds = reporterIds
            self.removeMessages = removeMessages
        }
    }
}
