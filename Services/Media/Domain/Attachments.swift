import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// Uploads attached to what other modules keep, and who may read a private one.
extension Uploads {
    /// Attaches the upload to `request.subject`: only its uploader may, only to something of its
    /// purpose, only once it is ready, and only once (again to the same subject answers the same, so
    /// a caller may retry).
    func attach(_ id: MediaID, _ request: AttachMediaRequest) async throws -> Media {
        let attached = try await database.transaction { sql -> Upload in
            guard var upload = try await store.lockedUpload(id, on: sql), upload.owner == request.owner else {
                throw MediaError.notAttachable("No upload of yours has the id \(id).")
            }
            guard upload.purpose == request.purpose else {
                throw MediaError.notAttachable("The upload was made for \(upload.purpose.rawValue), not \(request.purpose.rawValue).")
            }
            switch upload.state {
            case .ready: break
            case .rejected: throw MediaError.notAttachable("The upload was refused; upload the picture again.")
            case .awaiting, .processing: throw MediaError.notAttachable("The upload is not complete yet: complete it first.")
            }
            if let subject = upload.attachedTo {
                guard subject == request.subject else {
                    throw MediaError.notAttachable("The upload is attached to something else already.")
                }
                return upload
            }
            try await store.attach(id, to: request.subject, on: sql)
            upload.attachedTo = request.subject
            return upload
        }
        return media(attached)
    }

    /// The upload goes, with its objects, when it is attached to `subject` (which no longer shows
    /// it); otherwise nothing happens.
    func release(_ id: MediaID, from subject: MediaSubject) async throws {
        try await database.transaction { sql in try await UploadRemoval.release(id, from: subject, store: store, objects: objects, on: sql)
        }
    }

    /// Whether `viewer` may read the upload's private sizes: its uploader, an administrator (who
    /// judges a reported message), and the members of the chat room it is attached to, asked of chat
    /// each time, so a player who left the team cannot open them any more.
    func mayRead(_ upload: Upload, viewer: Identity) async throws -> Bool {
        if upload.owner == viewer.userID || viewer.roles.contains(.administrator) { return true }
        guard let room = upload.attachedTo?.room else { return false }
        return try await roomMembers.isMember(viewer.userID, of: room)
    }
}

/// Asks chat whether a player is one of a room's members.
struct RoomMembers: Sendable {
    let isMember: @Sendable (UserID, RoomID) async throws -> Bool
    func isMember(_ user: UserID, of room: RoomID) async throws -> Bool { try await isMember(user, room) }
}
