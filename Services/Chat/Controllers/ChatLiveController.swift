import Contracts
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceHTTP
import ServiceStore

/// `GET /v1/chat/live`: one socket per device for all the rooms it subscribes to. Only a signed-in
/// player is upgraded (`RouterMethods.live`).
struct ChatLiveController: Controller {
    let sockets: ChatSockets

    func register(on router: Router<HuddleRequestContext>) {
        router.live(ChatAPI.live) { _, context in
            try AuthenticatedContext(context: context).userID
        } serve: { user, inbound, _, context in
            let channel = context.requestContext.channel
            let session = ChatSocketSession(
                user: user, shared: sockets, logger: context.logger, channel: channel,
                cutOff: LiveSockets.cutOff(channel, after: sockets.settings.socketDrain))
            try await session.run(inbound: inbound)
        }
    }
}

/// What every chat socket of this instance uses.
final class ChatSockets: Sendable {
    static let maxMessageSize = 1 << 14
    /// Frames may be longer than a message may be, so that one over `maxMessageSize` is answered with
    /// an error frame (`IncomingMessage`) rather than the WebSocket decoder closing the socket.
    static let maxFrameSize = 1 << 20

    let live: LiveRooms
    let rooms: Rooms
    let messages: Messages
    let blocks: BlockCache
    let database: Database
    let settings: ChatSettings
    /// Which rooms this instance's sockets follow, for pushes decided on any instance.
    let presence: RoomPresence

    init(
        live: LiveRooms, rooms: Rooms, messages: Messages, blocks: BlockCache, database: Database, settings: ChatSettings,
        presence: RoomPresence
    ) {
        self.presence = presence
        self.live = live
        self.rooms = rooms
        self.messages = messages
        self.blocks = blocks
        self.database = database
        self.settings = settings
    }
}
