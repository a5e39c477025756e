public import Contracts

/// A subject's content and, for a message, the messages around it, as its owner module answers
/// moderation (`GET /internal/moderation/subjects/{type}/{id}`).
public struct SubjectSnapshot: Codable, Equatable, Sendable {
    public var content: SubjectContent
    public var context: [SubjectContent]?
    public init(content: SubjectContent, context: [SubjectContent]? = nil) {
        self.content = content
        self.context = context
    }
}
