import AsyncHTTPClient
import Contracts
import Foundation
import HuddleKit
import MediaService
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceClients
import ServiceKitTesting
import Testing

/// Photos through the gateway, as an app sends them: a ticket, a PUT of the bytes to its URL with
/// its headers (the all-in-one's own URL, through the gateway), then "complete", and the three sizes
/// read back from their URLs.
@Suite("Photos through the gateway")
struct MediaThroughGatewayTests {
    static func withStack(store: TestStore, body: (TestClient) async throws -> Void) async throws {
        try await StackTests.withStack(store: store, body: body)
    }

    /// PUTs `bytes` to the ticket's URL with its headers, as URLSession would; answers the status.
    static func send(_ bytes: Data, with ticket: UploadTicket) async throws -> UInt {
        try await UploadSender.send(bytes, with: ticket)
    }

    static func fetch(_ url: String) async throws -> (status: UInt, cacheControl: String?, body: Data) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        return (
            response.status.code, response.headers.first(name: "Cache-Control"),
            Data(buffer: try await response.body.collect(upTo: 1 << 24))
        )
    }

    @Test(
        "a profile picture goes up and comes back in three sizes without its GPS, public and cached for a year; nobody else sees the upload",
        arguments: StackTests.stores)
    func profilePicture(store: TestStore) async throws {
        try await Self.withStack(store: store) { gateway in
            let owner = try await gateway.register(name: "Pia Picture", email: HuddleKitTests.email(), password: "pia password 1")
            let photo = try ImageProcessor.sampleJPEG(width: 2000, height: 1500, orientation: 6)
            let ticket = try await gateway.value(
                MediaAPI.createUpload, body: CreateUploadRequest(purpose: .avatar, contentType: .jpeg, byteSize: photo.count),
                token: owner.accessToken)
            #expect((200..<300).contains(try await Self.send(photo, with: ticket)))
            let media = try await gateway.value(MediaAPI.completeUpload, ticket.id, token: owner.accessToken)
            #expect(media.status == .ready && media.width == 1500 && media.height == 2000)
            let variants = try #require(media.variants)
            let processor = try ImageProcessor(maxPixels: 50_000_000)
            for (variant, longest) in [(variants.small, 128), (variants.medium, 512), (variants.large, 1600)] {
                #expect(max(variant.width, variant.height) == longest)
                let file = try await Self.fetch(variant.url)
                #expect(file.status == 200 && file.cacheControl?.contains("immutable") == true)
                let header = try processor.header(of: file.body)
                #expect(header.width == variant.width && !header.hasGPS && !header.hasEXIF)
            }
            let stranger = try await gateway.register(name: "Stan", email: HuddleKitTests.email(), password: "stan password 1")
            #expect(try await gateway.call(MediaAPI.media, ticket.id, token: stranger.accessToken).status == 404)
            #expect(try await gateway.call(MediaAPI.completeUpload, ticket.id, token: stranger.accessToken).status == 404)
        }
    }

    @Test(
        "HuddleKit uploads a team logo in one call, and refuses a file that is no image; deleting the account removes every object of its uploads",
        arguments: StackTests.stores)
    func huddleKitAndDeletion(store: TestStore) async throws {
        try await Self.withStack(store: store) { gateway in
            let app = HuddleKitTests.client(gateway)
            try await app.register(email: HuddleKitTests.email(), password: "logo password 1", name: "Lou Logo")
            // A picture of its own, so that no other upload shares its content-addressed sizes.
            let logo = try ImageProcessor.sampleJPEG(width: 700 + Int.random(in: 0..<300), height: 500)
            let media = try await app.uploadPhoto(logo, purpose: .teamLogo)
            let variants = try #require(media.variants)
            #expect(media.status == .ready && variants.medium.width == 512)
            for variant in [variants.small, variants.medium, variants.large] { #expect(try await Self.fetch(variant.url).status == 200) }
            await #expect(throws: HuddleError.self) {
                _ = try await app.uploadPhoto(Data("not an image at all".utf8), contentType: .png, purpose: .avatar)
            }

            try await app.deleteAccount(password: "logo password 1")
            let gone = try await poll {
                var statuses: [UInt] = []
                for variant in [variants.small, variants.medium, variants.large] {
                    statuses.append(try await Self.fetch(variant.url).status)
                }
                return statuses
            } until: {
                $0.allSatisfy { $0 == 404 || $0 == 403 }
            }
            #expect(gone.allSatisfy { $0 == 404 || $0 == 403 }, "\(gone)")
        }
    }

    @Test(
        "refused with a problem and nothing kept: a text file named .jpg, a decompression bomb, a size over the limit",
        arguments: StackTests.stores)
    func refused(store: TestStore) async throws {
        try await Self.withStack(store: store) { gateway in
            let owner = try await gateway.register(name: "Rex Refused", email: HuddleKitTests.email(), password: "rex password 1")
            let bomb = PNG.make(width: 100_000, height: 100_000, rows: 1) { _, _ in [0, 0, 0, 255] }
            for (bytes, type) in [(Data("this is not a photo".utf8), MediaContentType.jpeg), (bomb, .png)] {
                let ticket = try await gateway.value(
                    MediaAPI.createUpload, body: CreateUploadRequest(purpose: .avatar, contentType: type, byteSize: bytes.count),
                    token: owner.accessToken)
                _ = try await Self.send(bytes, with: ticket)
                let refused = try await gateway.call(MediaAPI.completeUpload, ticket.id, token: owner.accessToken)
                #expect(refused.status == 422 && refused.problem?.code == "UNSUPPORTED_MEDIA")
                #expect(try await gateway.value(MediaAPI.media, ticket.id, token: owner.accessToken).status == .rejected)
            }
            let huge = try await gateway.call(
                MediaAPI.createUpload, body: CreateUploadRequest(purpose: .avatar, contentType: .jpeg, byteSize: 15_000_001),
                token: owner.accessToken)
            // Past the most any deployment takes (15 MB), the description's own limit names the field.
            #expect(huge.status == 422 && huge.problem?.errors?.map(\.field) == ["byteSize"])
        }
    }
}
