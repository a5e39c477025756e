import Contracts
import Foundation
import ServerContracts
import ServiceHTTP

/// Asks the module that holds a subject how a player sees it (`ModerationAPI.Internal.subject`): the
/// snapshot kept with a report, or nil when the player cannot see it.
struct Subjects: Sendable {
    let dependencies: ServiceDependencies

    func snapshot(of subject: ReportSubject, seenBy viewer: UserID, requestID: String?) async throws -> SubjectSnapshot? {
        let owner = subject.type.owner
        return try await InternalClient(owner, dependencies: dependencies).call(
            ModerationAPI.Internal.subject(at: owner), path: [subject.type.rawValue, subject.id],
            query: ModerationAPI.Internal.viewer(viewer), requestID: requestID)
    }
}
