import Contracts
import Foundation
import Logging
import NIOHTTP1
import ServiceClients

/// A conversation in the global room, and Chloe's word to the Kalev Spikers in their room (pushed to
/// Bruno's iPhone, which is not in the room), sent through the chat API as the players' phones would.
/// Each message has a fixed `clientMessageId`, so seeding again answers the messages sent first and
/// adds nothing.
enum DemoChat {
    static let teamMessage = "Training on Thursday starts at 19:00 this week. @Bruno Player can you bring the net?"

    static let conversation: [(account: DemoData.Account, id: String, text: String)] = [
        (DemoData.chloe, "demo-chat-1", "Anyone up for volleyball in Kalev on Thursday? We need two more."),
        (DemoData.bruno, "demo-chat-2", "Count me in. I'll bring a ball."),
        (DemoData.dmitri, "demo-chat-3", "Can't make it, I'm playing the Rakke course that evening. Next week!"),
    ]

    /// `teamRoom`: catalog is seeded too, so the Kalev Spikers have a room.
    static func seed(chatURL: String, teamRoom: Bool, sessions: [String: Session], logger: Logger) async -> Bool {
        let chat = APIClient(baseURL: chatURL)
        do {
            guard let first = sessions[DemoData.chloe.email] else { return false }
            let rooms = try await chat.value(ChatAPI.rooms, token: first.accessToken)
            guard let global = rooms.items.first(where: { $0.kind == .global }) else {
                throw DemoFailure(description: "no global room")
            }
            for line in conversation {
                guard let session = sessions[line.account.email] else { return false }
                _ = try await chat.value(
                    ChatAPI.send, global.id, body: SendChatMessage(text: line.text, clientMessageId: line.id),
                    token: session.accessToken)
            }
            guard teamRoom else { return true }
            // The team's room follows catalog's events, which may still be on their way; through a
            // gateway, the seeding so far may have spent this client's requests for a second.
            for _ in 0..<20 {
                let teams = try await chat.call(ChatAPI.rooms, query: ChatAPI.roomKind(.team), token: first.accessToken)
                if teams.status == 200,
                    let spikers = try teams.decode(Page<ChatRoom>.self).items.first(where: { $0.name == "Kalev Spikers" })
                {
                    _ = try await chat.value(
                        ChatAPI.send, spikers.id, body: SendChatMessage(text: teamMessage, clientMessageId: "demo-team-1"),
                        token: first.accessToken)
                    return true
                }
                try await Task.sleep(for: .milliseconds(500))
            }
            throw DemoFailure(description: "no Kalev Spikers room")
        } catch {
            logger.warning("demo chat incomplete: \(error)")
            return false
        }
    }
}
