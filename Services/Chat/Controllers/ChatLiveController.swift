import Contracts
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceKit

/// `GET /v1/chat/live`: one socket per device for all the rooms it subscribes to. Only a signed-in
/// player is upgraded; the HTTP route answers everyone else (426, or 401 without a token).
struct ChatLiveController {
    let sockets: ChatSockets
    let verifier: TokenVerifier

    func add(to router: Router<LiveRequestContext>) {
        router.ws(RouterPath(ChatAPI.live.operation.path.text)) { request, context in
            await UpgradeRefusal.upgrade(request, on: context.channel) { _ = try await verifier.user(of: request) }
        } onUpgrade: { inbound, _, context in
            guard let user = await user(context.request) else { return }
            let channel = context.requestContext.channel
            let session = ChatSocketSession(
                user: user, shared: sockets, logger: context.logger, channel: channel,
                cutOff: LiveSockets.cutOff(channel, after: sockets.settings.socketDrain))
            do {
                try await LiveSockets.serve(channel) { try await session.run(inbound: inbound) }
            } catch {
                context.logger.debug("chat socket of \(user) ended: \(error)")
            }
        }
    }

    private func user(_ request: Request) async -> UserID? {
        try? await verifier.user(of: request)
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

    init(live: LiveRooms, rooms: Rooms, messages: Messages, blocks: BlockCache, database: Database, settings: ChatSettings) {
        self.live = live
        self.rooms = rooms
        self.messages = messages
        self.blocks = blocks
        self.database = database
        self.settings = settings
    }
}
