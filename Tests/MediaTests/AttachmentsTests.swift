import Contracts
import Foundation
import ServerContracts
import ServiceFeatures
import ServiceHTTP
import ServiceKitTesting
import ServiceStore
import Testing

@testable import MediaService

/// Uploads attached to what other modules keep, released, read by a room's members, and the same
/// picture uploaded twice kept for as long as one upload names it.
@Suite("Attachments")
struct AttachmentsTests {
    /// A completed upload of `photo` for `purpose` by `owner`.
    static func completed(_ photo: Data, _ purpose: MediaPurpose, by owner: UserID, in uploads: Uploads) async throws -> Media {
        let ticket = try await uploads.create(.init(purpose: purpose, contentType: .jpeg, byteSize: photo.count), by: owner)
        try await UploadsTests.send(photo, with: ticket, to: uploads)
        return try await uploads.complete(ticket.id, by: owner)
    }

    static func refusal(_ body: () async throws -> Void) async -> String? {
        do {
            try await body()
            return nil
        } catch let error as MediaError {
            return error.problem.code == ProblemCode.mediaNotAttachable.code ? error.problem.detail : "\(error.problem)"
        } catch { return "\(error)" }
    }

    @Test(
        "only the uploader's ready upload of the purpose is attached, once; again to the same subject answers the same; release deletes it",
        arguments: TestStore.all)
    func attachOnce(store: TestStore) async throws {
        try await UploadsTests.with(store: store) { uploads, objects in
            let owner = UserID(), team = MediaSubject(.team, TeamID())
            let logo = try await Self.completed(try ImageProcessor.sampleJPEG(width: 300, height: 200), .teamLogo, by: owner, in: uploads)
            let waiting = try await uploads.create(.init(purpose: .teamLogo, contentType: .jpeg, byteSize: 10), by: owner)
            let refusals = [
                await Self.refusal { _ = try await uploads.attach(logo.id, .init(owner: UserID(), purpose: .teamLogo, subject: team)) },
                await Self.refusal { _ = try await uploads.attach(logo.id, .init(owner: owner, purpose: .avatar, subject: team)) },
                await Self.refusal { _ = try await uploads.attach(waiting.id, .init(owner: owner, purpose: .teamLogo, subject: team)) },
            ]
            #expect(refusals.map { $0?.prefix(12) } == ["No upload of", "The upload w", "The upload i"], "\(refusals)")
            let attached = try await uploads.attach(logo.id, .init(owner: owner, purpose: .teamLogo, subject: team))
            #expect(attached == logo)
            #expect(try await uploads.attach(logo.id, .init(owner: owner, purpose: .teamLogo, subject: team)) == logo)
            let elsewhere = await Self.refusal {
                _ = try await uploads.attach(logo.id, .init(owner: owner, purpose: .teamLogo, subject: MediaSubject(.team, TeamID())))
            }
            #expect(elsewhere == "The upload is attached to something else already.")

            // Let go of by another subject, nothing happens; by its own, it goes with its files.
            try await uploads.release(logo.id, from: MediaSubject(.team, TeamID()))
            #expect(try await uploads.media(logo.id, viewer: owner).status == .ready)
            try await uploads.release(logo.id, from: team)
            await #expect(throws: CommonError.self) { _ = try await uploads.media(logo.id, viewer: owner) }
            let key = try #require(logo.variants?.medium.url.split(separator: "/v1/media/files/").last.map(String.init))
            #expect(try await objects.get(key, limit: 1 << 20) == nil)
        }
    }

    @Test("a chat photo is read by its uploader, an administrator and the room's members, as chat answers; by nobody else")
    func chatPhotoReaders() async throws {
        let room = RoomID(), member = UserID(), owner = UserID()
        let members = RoomMembers { user, asked in asked == room && user == member }
        try await UploadsTests.with(store: .sqlite, roomMembers: members) { uploads, _ in
            let photo = try await Self.completed(try ImageProcessor.sampleJPEG(width: 300, height: 200), .chatPhoto, by: owner, in: uploads)
            _ = try await uploads.attach(
                photo.id, .init(owner: owner, purpose: .chatPhoto, subject: MediaSubject(.room, "\(room)/client-1")))
            func reads(_ identity: Identity) async -> Bool {
                (try? await uploads.privateVariant(photo.id, size: "small", viewer: identity)) != nil
            }
            let session = SessionID()
            #expect(await reads(Identity(userID: owner, sessionID: session)))
            #expect(await reads(Identity(userID: member, sessionID: session)))
            #expect(await reads(Identity(userID: UserID(), sessionID: session, roles: [.administrator])))
            #expect(await !reads(Identity(userID: UserID(), sessionID: session)))
        }
    }

    @Test("the same picture uploaded by two players is one object, kept until neither upload names it", arguments: TestStore.all)
    func sharedPicture(store: TestStore) async throws {
        try await UploadsTests.with(store: store) { uploads, objects in
            let picture = try ImageProcessor.sampleJPEG(width: 400, height: 300)
            let (first, second) = (UserID(), UserID())
            let one = try await Self.completed(picture, .avatar, by: first, in: uploads)
            let other = try await Self.completed(picture, .avatar, by: second, in: uploads)
            #expect(one.variants?.medium.url == other.variants?.medium.url)
            let key = try #require(one.variants?.medium.url.split(separator: "/v1/media/files/").last.map(String.init))
            let events = MediaEvents(store: SQLUploadStore(), objects: objects)
            try await uploads.database.transaction { sql in try await events.erase(first, on: sql) }
            #expect(try await objects.get(key, limit: 1 << 20) != nil, "the second player's picture went with the first's account")
            try await uploads.database.transaction { sql in try await events.erase(second, on: sql) }
            #expect(try await objects.get(key, limit: 1 << 20) == nil)
        }
    }
}
