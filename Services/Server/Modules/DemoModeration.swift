import Contracts
import Foundation
import Logging
import ServiceClients

/// A case for the moderation console to open on: Dmitri's spam in the global room, reported by
/// Chloe. Seeding again sends nothing new (the message's `clientMessageId`) and reports nothing new
/// (one report per reporter and subject).
enum DemoModeration {
    static let spam = "Cheap boots, 90% off, today only: message me for the link!!!"

    static func seed(chatURL: String, moderationURL: String, sessions: [String: Session], logger: Logger) async -> Bool {
        let chat = APIClient(baseURL: chatURL)
        let moderation = APIClient(baseURL: moderationURL)
        do {
            guard let sender = sessions[DemoData.dmitri.email], let reporter = sessions[DemoData.chloe.email] else { return false }
            let rooms = try await chat.value(ChatAPI.rooms, token: sender.accessToken)
            guard let global = rooms.items.first(where: { $0.kind == .global }) else { throw DemoFailure(description: "no global room") }
            let message = try await chat.value(
                ChatAPI.send, global.id, body: SendChatMessage(text: spam, clientMessageId: "demo-chat-spam"), token: sender.accessToken)
            _ = try await moderation.value(
                ModerationAPI.report,
                body: ReportRequest(subject: .message(message.id), reason: .spam, note: "Posts this in every room."),
                token: reporter.accessToken)
            return true
        } catch {
            logger.warning("demo report incomplete: \(error)")
            return false
        }
    }
}
