import Contracts
import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import ServiceKit

/// `GET /v1/chat/live`: one socket per device for all the rooms it subscribes to. Only a signed-in
/// player is upgraded; the HTTP route answers everyone else (426, or 401 without a token).
struct ChatLiveController {
    static let maxMessageSize = 1 << 14

    let live: LiveRooms
    let rooms: Rooms
    let messages: Messages
    let blocks: BlockCache
    let database: Database
    let settings: ChatSettings
    let verifier: TokenVerifier

    func add(to router: Router<LiveRequestContext>) {
        router.ws(RouterPath(ChatAPI.live.operation.path.text)) { request, _ in
            await user(request) == nil ? .dontUpgrade : .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            guard let user = await user(context.request) else { return }
            let session = ChatSocketSession(
                user: user, live: live, rooms: rooms, messages: messages, database: database, blocks: blocks,
                bufferSize: settings.socketBuffer, maxMessageSize: Self.maxMessageSize, logger: context.logger,
                cutOff: LiveSockets.cutOff(context.requestContext.channel, after: settings.socketDrain))
            do {
                try await LiveSockets.serve(context.requestContext.channel) { try await session.run(inbound: inbound, outbound: outbound) }
            } catch {
                context.logger.debug("chat socket of \(user) ended: \(error)")
            }
        }
    }

    private func user(_ request: Request) async -> UserID? {
        guard let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer ") else { return nil }
        return try? await verifier.verify(String(authorization.dropFirst("Bearer ".count))).userID
    }
}
