import Contracts
import Hummingbird
import ServerContracts
import ServiceHTTP

/// `/internal/media/...`: what other modules call through `MediaClient` to attach a player's upload
/// to what they keep, and to let it go.
struct MediaInternalController: Controller {
    let uploads: Uploads

    func register(on router: Router<HuddleRequestContext>) {
        router.on(MediaAPI.Internal.attach, use: attach)
        router.on(MediaAPI.Internal.release, use: release)
    }

    /// `POST /internal/media/{id}/attach`
    @Sendable func attach(_ body: AttachMediaRequest, _ request: Request, _ context: HuddleRequestContext) async throws -> Media {
        try await uploads.attach(try context.parameters.id(MediaID.self), body)
    }

    /// `POST /internal/media/{id}/release`
    @Sendable func release(_ body: ReleaseMediaRequest, _ request: Request, _ context: HuddleRequestContext) async throws -> NoContent {
        try await uploads.release(try context.parameters.id(MediaID.self), from: body.subject)
        return NoContent()
    }
}
