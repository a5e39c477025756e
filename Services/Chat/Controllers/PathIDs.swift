import Contracts
import Hummingbird
import ServiceKit

/// Chat's path ids, each with its one 404 wording.
extension Parameters {
    func roomID() throws -> RoomID { try id(as: RoomID.self, missing: "No room with id \(get("id") ?? "").") }
    func messageID() throws -> ChatMessageID {
        try id("messageId", as: ChatMessageID.self, missing: "No message with id \(get("messageId") ?? "") in this room.")
    }
    func userID() throws -> UserID { try id("userId", as: UserID.self, missing: "No player with id \(get("userId") ?? "").") }
}
