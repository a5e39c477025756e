import Contracts
import Logging
import ServerContracts
import ServiceClients

/// Team and league logos uploaded to media: the manager's own upload, attached to the team or league
/// once, and let go of when another replaces it or the logo is removed.
struct Logos: Sendable {
    let media: MediaClient
    let logger: Logger

    /// The upload a change names (`logoMediaId`), attached as the subject's logo; nil when the
    /// change removes the logo or leaves it as it is.
    func attach(_ change: MediaID??, as purpose: MediaPurpose, to subject: MediaSubject, by user: UserID) async throws
        -> AttachedPicture?
    {
        guard case .some(.some(let upload)) = change else { return nil }
        return try await media.picture(upload, by: user, as: purpose, to: subject, field: "logoMediaId")
    }

    func release(_ replaced: MediaID?, from subject: MediaSubject) async {
        if let replaced { await media.releaseReplaced(replaced, from: subject, logger: logger) }
    }
}
