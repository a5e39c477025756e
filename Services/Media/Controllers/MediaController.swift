import Contracts
import Foundation
import Hummingbird
import ServiceFeatures
import ServiceHTTP

/// `/v1/media/...`: uploads, their sizes, and the files media serves itself.
struct MediaController: Controller {
    let uploads: Uploads

    func register(on router: Router<HuddleRequestContext>) {
        router.on(MediaAPI.createUpload, use: createUpload)
        router.upload(MediaAPI.uploadContent, limit: uploads.limits.maxBytes, use: uploadContent)
        router.on(MediaAPI.completeUpload, use: completeUpload)
        router.on(MediaAPI.media, use: media)
        router.file(MediaAPI.publicFile, use: publicFile)
        router.file(MediaAPI.privateVariant, use: privateVariant)
    }

    /// `POST /v1/media/uploads`
    @Sendable func createUpload(_ body: CreateUploadRequest, _ request: Request, _ context: AuthenticatedContext) async throws
        -> UploadTicket
    {
        try await uploads.create(body, by: context.userID)
    }

    /// `PUT /v1/media/uploads/{id}/content`: the signed URL is the credential, as a presigned one is.
    @Sendable func uploadContent(_ bytes: Data, _ request: Request, _ context: HuddleRequestContext) async throws {
        try await uploads.receive(
            try context.parameters.id(MediaID.self), bytes, expires: try request.query(MediaAPI.uploadExpires),
            signature: try request.query(MediaAPI.uploadSignature))
    }

    /// `POST /v1/media/uploads/{id}/complete`
    @Sendable func completeUpload(_ request: Request, _ context: AuthenticatedContext) async throws -> Media {
        try await uploads.complete(try context.parameters.id(MediaID.self), by: context.userID)
    }

    /// `GET /v1/media/{id}`
    @Sendable func media(_ request: Request, _ context: AuthenticatedContext) async throws -> Media {
        try await uploads.media(try context.parameters.id(MediaID.self), viewer: context.userID)
    }

    /// `GET /v1/media/public/{file}`
    @Sendable func publicFile(_ request: Request, _ context: HuddleRequestContext) async throws -> FileAnswer {
        let file = context.parameters.get("file") ?? ""
        guard let data = try await uploads.publicFile(file) else { throw CommonError.notFound("No such file.") }
        return FileAnswer(data: data, contentType: "image/jpeg", cacheControl: Uploads.publicCaching)
    }

    /// `GET /v1/media/{id}/sizes/{size}`
    @Sendable func privateVariant(_ request: Request, _ context: AuthenticatedContext) async throws -> FileAnswer {
        let data = try await uploads.privateVariant(
            try context.parameters.id(MediaID.self), size: context.parameters.get("size") ?? "", viewer: context.identity)
        return FileAnswer(data: data, contentType: "image/jpeg", cacheControl: Uploads.privateCaching)
    }
}
