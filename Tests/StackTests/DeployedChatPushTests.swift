import Contracts
import Foundation
import HuddleKit
import ProviderStandIns
import ServiceKitTesting
import Testing

/// Chat pushes in a deployed topology — compose's, and the replicated one, where chat runs twice behind
/// two gateways — with notify pushing to the stand-in's FCM, which shows what each phone was sent.
@Suite(
    "Chat pushes in a deployed topology",
    .enabled(if: StackTests.deployedGateway != nil && standInURL != nil, "needs a deployed topology and its stand-in"))
struct DeployedChatPushTests {
    @Test("a member away from the team's room is pushed its messages; one following it on a socket, through either gateway, is not")
    func awayAndFollowing() async throws {
        let gateway = try TestClient(baseURL: #require(StackTests.deployedGateway))
        let standIn = try TestClient(baseURL: #require(standInURL))
        let ada = try await gateway.register(name: "Ada Deployed"), bo = try await gateway.register(name: "Bo Following")
        let cy = try await gateway.register(name: "Cy Away")
        var phones: [UserID: String] = [:]
        for player in [bo, cy] {
            let token = "deployed-\(UUID().uuidString)"
            _ = try await gateway.value(
                NotifyAPI.registerDevice, body: RegisterDevice(platform: .fcm, token: token), token: player.accessToken)
            phones[player.user.id] = token
        }
        let team = try await gateway.value(
            CatalogAPI.createTeam, body: StackTests.teamRequest(name: "Deployed Dolphins"), token: ada.accessToken)
        for player in [bo, cy] { _ = try await gateway.value(CatalogAPI.joinTeam, team.id, token: player.accessToken) }
        let room = try #require(
            try await poll(every: .milliseconds(200)) {
                try await gateway.value(ChatAPI.rooms, query: ChatAPI.roomKind(.team), token: cy.accessToken).items
                    .first { $0.subjectId == team.id.description }
            } until: {
                $0 != nil
            }
        ).id
        // Bo follows the room from a device through each gateway (in the replicated topology, on either chat instance);
        // his own message reaching both tells they are in the room.
        var following: [Task<Void, Never>] = []
        let devices = gateway.baseURLs.map { _ in Frames() }
        for (device, base) in zip(devices, gateway.baseURLs) {
            let app = HuddleClient(baseURL: URL(string: base)!, liveTransport: WebSocketLiveTransport(), tokens: InMemoryTokenStore())
            try await app.signIn(email: bo.user.email, password: "correct horse battery")
            following.append(Task { await device.follow(app.liveChat([room: 0])) })
        }
        defer { following.forEach { $0.cancel() } }
        _ = try await gateway.value(
            ChatAPI.send, room, body: SendChatMessage(text: "Bo here", clientMessageId: "bo-1"), token: bo.accessToken)
        for device in devices { #expect(try await device.waitFor(seq: 1), "\(device)") }

        for index in 1...3 {
            let message = SendChatMessage(text: "Training moved, note \(index)", clientMessageId: "ada-\(index)")
            _ = try await gateway.value(ChatAPI.send, room, body: message, token: ada.accessToken)
        }
        for device in devices { #expect(try await device.waitFor(seq: 4), "\(device)") }
        let away = try await standIn.pushes("fcm", to: try #require(phones[cy.user.id]), reaching: 1)
        #expect(away.contains { $0.payload.contains("chatMessage") && $0.payload.contains(room.description) }, "\(away.map(\.payload))")
        try await Task.sleep(for: .seconds(2))
        let followingPhone = try await standIn.pushes("fcm", to: try #require(phones[bo.user.id]))
        #expect(!followingPhone.contains { $0.payload.contains(room.description) }, "\(followingPhone.map(\.payload))")
    }
}
