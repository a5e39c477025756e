import Contracts
import Foundation
import Logging
import MediaService
import ServiceClients

/// The demo's faces: each player's profile picture and the Kalev Spikers' logo, uploaded as an app
/// uploads them (a ticket from media, the bytes PUT to its URL with its headers, completion) and
/// attached through auth and catalog. Drawn by libvips, so the demo needs no image files; a player or
/// team that has a picture already is left as it is, so seeding again adds nothing.
enum DemoPictures {
    /// Each account's colours: background and figure (RGB).
    static let colours: [String: ([Double], [Double])] = [
        DemoData.administrator.email: ([94, 53, 177], [237, 231, 246]),
        DemoData.bruno.email: ([21, 101, 192], [227, 242, 253]),
        DemoData.chloe.email: ([230, 81, 0], [255, 243, 224]),
        DemoData.dmitri.email: ([46, 125, 50], [232, 245, 233]),
    ]
    static let logoTeam = "Kalev Spikers"

    static func seed(mediaURL: String, authURL: String, catalogURL: String?, sessions: [String: Session], logger: Logger) async -> Bool {
        let media = APIClient(baseURL: mediaURL), auth = APIClient(baseURL: authURL)
        do {
            for (email, (background, figure)) in colours.sorted(by: { $0.key < $1.key }) {
                guard let token = sessions[email]?.accessToken else { return false }
                guard try await auth.value(AuthAPI.me, token: token).picture == nil else { continue }
                let picture = try ImageProcessor.emblemJPEG(size: 640, logo: false, background: background, figure: figure)
                let uploaded = try await upload(picture, as: .avatar, to: media, token: token)
                _ = try await auth.value(AuthAPI.updateMe, body: UpdateProfileRequest(pictureMediaId: .some(uploaded)), token: token)
            }
            if let catalogURL, let token = sessions[DemoData.chloe.email]?.accessToken {
                let catalog = APIClient(baseURL: catalogURL)
                let teams = try await catalog.value(CatalogAPI.teams, query: CatalogAPI.teamMember(.me) + Query.limit(100), token: token)
                if let team = teams.items.first(where: { $0.name == logoTeam }), team.logo == nil {
                    let logo = try ImageProcessor.emblemJPEG(size: 800, logo: true, background: [255, 255, 255], figure: [0, 114, 206])
                    let uploaded = try await upload(logo, as: .teamLogo, to: media, token: token)
                    _ = try await catalog.value(
                        CatalogAPI.updateTeam, team.id, body: UpdateTeamRequest(logoMediaId: .some(uploaded)), token: token)
                }
            }
            return true
        } catch {
            logger.warning("demo pictures incomplete: \(error)")
            return false
        }
    }

    /// A completed upload of `bytes`, sent where its ticket says.
    private static func upload(_ bytes: Data, as purpose: MediaPurpose, to media: APIClient, token: String) async throws -> MediaID {
        let ticket = try await media.value(
            MediaAPI.createUpload, body: CreateUploadRequest(purpose: purpose, contentType: .jpeg, byteSize: bytes.count), token: token)
        let status = try await UploadSender.send(bytes, with: ticket)
        guard (200..<300).contains(status) else {
            throw DemoFailure(description: "the upload's PUT answered \(status)")
        }
        let done = try await media.value(MediaAPI.completeUpload, ticket.id, token: token)
        guard done.status == .ready else { throw DemoFailure(description: "the demo picture was \(done.status.rawValue)") }
        return done.id
    }
}
