public import Contracts
public import Logging
public import ServerContracts
public import ServiceHTTP

/// Media's internal API: attaching a player's upload to what another module keeps, and letting it go.
public struct MediaClient: Sendable {
    let client: InternalClient

    public init(dependencies: ServiceDependencies, timeout: Duration = .seconds(5)) {
        self.client = InternalClient(.media, dependencies: dependencies, timeout: timeout)
    }

    /// The upload, attached to `subject` for good; a problem naming `field` when it cannot be (not
    /// `owner`'s, not ready, of another purpose, attached elsewhere).
    public func attach(
        _ id: MediaID, by owner: UserID, as purpose: MediaPurpose, to subject: MediaSubject, field: String, requestID: String? = nil
    ) async throws -> Media {
        do {
            return try await client.call(
                MediaAPI.Internal.attach, path: [id], body: AttachMediaRequest(owner: owner, purpose: purpose, subject: subject),
                requestID: requestID, relaying: [.mediaNotAttachable])
        } catch let relayed as RelayedProblem {
            var problem = relayed.problem
            problem.errors = [.init(field: field, message: problem.detail ?? "cannot be attached")]
            throw RelayedProblem(problem: problem)
        }
    }

    /// A picture (an avatar, a logo) attached to `subject`, with its sizes' public URLs.
    public func picture(
        _ id: MediaID, by owner: UserID, as purpose: MediaPurpose, to subject: MediaSubject, field: String, requestID: String? = nil
    ) async throws -> AttachedPicture {
        let media = try await attach(id, by: owner, as: purpose, to: subject, field: field, requestID: requestID)
        guard let picture = AttachedPicture(media, ownerId: owner) else { throw CommonError.invalid(field, "is not ready") }
        return picture
    }

    /// The subject let go of the upload: it is deleted, with its objects.
    public func release(_ id: MediaID, from subject: MediaSubject, requestID: String? = nil) async throws {
        _ = try await client.call(MediaAPI.Internal.release, path: [id], body: ReleaseMediaRequest(subject: subject), requestID: requestID)
    }

    /// Lets a replaced picture go once the change that replaced it is kept. Not retried if media
    /// cannot be reached now: the upload then stays, shown nowhere, until its uploader's account is
    /// deleted (which removes every upload).
    public func releaseReplaced(_ id: MediaID, from subject: MediaSubject, logger: Logger) async {
        do { try await release(id, from: subject) } catch {
            logger.warning("replaced picture not released", metadata: ["media.id": "\(id)", "error": "\(error)"])
        }
    }
}
