import Contracts
import Foundation
import Logging
import NIOHTTP1
import ServiceClients

/// A conversation in the global room, sent through the chat API as the players' phones would. Each
/// message has a fixed `clientMessageId`, so seeding again answers the messages sent first and adds
/// nothing.
enum DemoChat {
    static let conversation: [(account: DemoData.Account, id: String, text: String)] = [
        (DemoData.chloe, "demo-chat-1", "Anyone up for volleyball in Kalev on Thursday? We need two more."),
        (DemoData.bruno, "demo-chat-2", "Count me in. I'll bring a ball."),
        (DemoData.dmitri, "demo-chat-3", "Can't make it, I'm playing the Rakke course that evening. Next week!"),
    ]

    static func seed(chatURL: String, sessions: [String: Session], logger: Logger) async -> Bool {
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
            return true
        } catch {
            logger.warning("demo chat incomplete: \(error)")
            return false
        }
    }
}
