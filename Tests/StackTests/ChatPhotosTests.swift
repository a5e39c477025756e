import Contracts
import Foundation
import HuddleKit
import MediaService
import ServiceKitTesting
import Testing

/// Photos in a team's chat, through the gateway: sent over HTTP and over the socket, seen live and in
/// history with the sender's picture, readable by the room's members only (and no longer by one
/// removed from the team), without their GPS; a deleted message's photos are deleted.
@Suite("Photos in the chat")
struct ChatPhotosTests {
    /// A signed-in player's app and session (the socket takes the session's token).
    static func player(_ gateway: TestClient, _ name: String) async throws -> (app: HuddleClient, session: Session) {
        let session = try await gateway.register(name: name)
        let stored = StoredSession(session: session, accessTokenExpiresAt: Date().addingTimeInterval(TimeInterval(session.expiresIn)))
        return (HuddleClient(baseURL: URL(string: gateway.baseURL)!, tokens: InMemoryTokenStore(stored)), session)
    }

    @Test(
        "a team's photos go to its members only, live and in history, without GPS; a removed player cannot open them; a deleted message's photos go",
        arguments: StackTests.stores)
    func teamPhotos(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let (mona, _) = try await Self.player(gateway, "Mona Manager")
            let (pete, peteSession) = try await Self.player(gateway, "Pete Player")
            let (stan, _) = try await Self.player(gateway, "Stan Stranger")
            try await mona.setProfilePicture(try PicturesAttachedTests.picture())
            let team = try await mona.send(CatalogAPI.createTeam, body: StackTests.teamRequest(name: "Photo Finish"))
            _ = try await mona.send(CatalogAPI.inviteToTeam, team.id, body: InviteRequest(userIds: [peteSession.user.id]))
            _ = try await pete.send(CatalogAPI.joinTeam, team.id)
            let room = try await poll {
                try await pete.send(ChatAPI.rooms, query: Query.limit(100)).items.first { $0.subjectId == team.id.description }
            } until: {
                $0 != nil
            }
            let roomID = try #require(room).id

            let live = try await ChatSocket.connect(baseURL: gateway.baseURL, chatToken: peteSession.accessToken)
            try live.send(ChatClientFrame.subscribe(roomID))
            #expect(try await live.waitFor { $0.type == .subscribed })

            // From a phone that kept the place in its EXIF: the sizes carry none of it.
            let kit = try ImageProcessor.sampleJPEG(width: 1200, height: 900, orientation: 1)
            let sent = try await mona.sendPhotos([kit], text: "The new kit", to: roomID)
            let photo = try #require(sent.attachments?.first)
            #expect(sent.attachments?.count == 1 && photo.status == .ready && sent.text == "The new kit")
            #expect(try await live.waitFor { $0.message?.id == sent.id && $0.message?.attachments?.first?.id == photo.id })
            let history = try await pete.send(ChatAPI.messages, roomID).items
            let seen = try #require(history.first { $0.id == sent.id })
            #expect(seen.attachments == sent.attachments && seen.senderPicture != nil)
            let bytes = try await pete.chatPhoto(photo, size: "large")
            let header = try ImageProcessor(maxPixels: 50_000_000).header(of: bytes)
            #expect(header.width == 1200 && !header.hasGPS && !header.hasEXIF)

            // A photo alone, over the socket, as the HTTP answer carries it.
            let alone = try await pete.uploadPhoto(try PicturesAttachedTests.picture(), purpose: .chatPhoto)
            try live.send(ChatClientFrame.send(nil, photos: [alone.id], to: roomID, clientMessageId: "socket-photo"))
            #expect(try await live.waitFor { $0.message?.attachments?.map(\.id) == [alone.id] && $0.message?.text == "" })

            await #expect(throws: HuddleError.self) { _ = try await stan.chatPhoto(photo) }
            await #expect(throws: HuddleError.self) {
                _ = try await stan.send(ChatAPI.send, roomID, body: SendChatMessage(mediaIds: [alone.id], clientMessageId: "stolen"))
            }

            // Membership and removal reach chat and media by events: each is waited for.
            _ = try await mona.send(CatalogAPI.removeMember, team.id, peteSession.user.id)
            #expect(try await Self.refusal(of: photo, to: pete) == 404)
            _ = try await mona.send(ChatAPI.delete, roomID, sent.id)
            #expect(try await Self.refusal(of: photo, to: mona) == 404)
            await live.close()
        }
    }

    /// The status `app` is refused the photo with, once it is.
    static func refusal(of photo: Media, to app: HuddleClient) async throws -> Int? {
        try await poll { () -> Int? in
            do {
                _ = try await app.chatPhoto(photo)
                return nil
            } catch let error as HuddleError {
                return error.status
            }
        } until: {
            $0 != nil
        }
    }

    @Test("a message needs a text or a photo, and takes at most four photos, each once", arguments: StackTests.stores)
    func photoRules(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let (ada, session) = try await Self.player(gateway, "Ada Rules")
            let global = try #require(try await ada.send(ChatAPI.rooms).items.first { $0.kind == .global }).id
            let photo = try await ada.uploadPhoto(try PicturesAttachedTests.picture(), purpose: .chatPhoto)
            for (body, field) in [
                (SendChatMessage(clientMessageId: "nothing"), "text"),
                (SendChatMessage(mediaIds: [photo.id, photo.id], clientMessageId: "twice"), "mediaIds"),
                (SendChatMessage(mediaIds: Array(repeating: MediaID(), count: 5), clientMessageId: "five"), "mediaIds"),
            ] {
                let answer = try await gateway.call(ChatAPI.send, global, body: body, token: session.accessToken)
                #expect(
                    answer.status == 422 && answer.problem?.errors?.map(\.field) == [field],
                    "\(answer.status) \(String(describing: answer.problem))")
            }
        }
    }

    @Test(
        "a reported message's photos are in its case for the administrator to open; removed by a moderator, they are deleted",
        arguments: StackTests.stores)
    func reportedPhotos(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let admin = try await StackTests.administrator(gateway)
            let (pia, _) = try await Self.player(gateway, "Pia Poster"), (ann, _) = try await Self.player(gateway, "Ann Reporter")
            let global = try #require(try await pia.send(ChatAPI.rooms).items.first { $0.kind == .global }).id
            let sent = try await pia.sendPhotos([try PicturesAttachedTests.picture()], text: "look at this", to: global)
            let photo = try #require(sent.attachments?.first)
            _ = try await ann.report(.message(sent.id), reason: .spam)
            let opened = try #require(
                try await gateway.value(ModerationAPI.cases, query: Query.limit(100), token: admin.accessToken).items.first {
                    $0.subject.id.uuid == sent.id.uuid
                })
            #expect(opened.content.attachments?.map(\.id) == [photo.id])
            let seen = try await gateway.call(MediaAPI.privateVariant, photo.id, "medium", token: admin.accessToken)
            #expect(seen.status == 200 && seen.header("Content-Type") == "image/jpeg")
            _ = try await gateway.value(
                ModerationAPI.act, opened.id, body: CaseActionRequest(action: .remove, reason: "Spam"), token: admin.accessToken)
            #expect(try await Self.refusal(of: photo, to: pia) == 404)
        }
    }
}
