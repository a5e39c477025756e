public import Configuration
import Contracts
import Foundation
import HuddleEffects
import Hummingbird
import HummingbirdWebSocket
import ServiceClients
import ServiceFeatures
public import ServiceHTTP
import ServiceKit
public import ServiceLifecycle
import ServiceStore

extension ModuleBuilder {
    /// The module as `huddle` and its own executable (`chat`) run it.
    public static let chat = ModuleBuilder(.chat, migrate: { try await migrateStore(.chat, reader: $0, logger: $1, ChatMigrations.all) }) {
        try await buildChatService(reader: $0, dependencies: $1)
    }
}

/// Builds the chat service: the global room, team, game and match rooms kept in step with catalog's
/// and games' events, direct rooms, messages numbered by a gap-free seq per room, read markers,
/// blocks, mutes, flood control, and one live socket per device fanned out across instances through the
/// store's notifications. Messages are published for notify, which asks chat whom to push each to.
///
/// Configuration keys: the skeleton's (`chat.http.*`, `chat.db.url`, `chat.revocation.poll.ms`,
/// `internal.keys`, `chat.internal.key`) and `ChatSettings`' (`chat.flood.*`, `chat.unread.cap`, `chat.match.*`,
/// `chat.socket.*`, `chat.presence.renew.ms`). Chat consumes auth's, catalog's and games' events: list `chat` in their
/// `<module>.events.subscribers`.
public func buildChatService(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some Service {
    var service = try await ServiceSkeleton(.chat, reader: reader, dependencies: dependencies, migrations: ChatMigrations.all)
    let database = service.database
    let settings = ChatSettings(reader: reader)
    let now = dependencies.effects.now
    let auth = AuthClient(dependencies: dependencies)
    let nameFromAuth: @Sendable (UserID) async throws -> String? = { user in try await auth.profiles([user])[user]?.name }
    let roomStore = SQLRoomStore(), messageStore = SQLMessageStore(), people = SQLPeopleStore()
    let rooms = Rooms(
        database: database, rooms: roomStore, messages: messageStore, people: people, mutes: SQLMuteStore(), settings: settings, now: now)
    let messages = Messages(
        database: database, rooms: rooms, store: messageStore, roomStore: roomStore, people: people,
        flood: FloodControl(
            capacity: settings.floodBurst, interval: settings.floodInterval, database: database, store: SQLFloodStore(), now: now),
        filter: ContentFilter(reader: reader),
        nameFromAuth: nameFromAuth, photos: MessagePhotos(media: MediaClient(dependencies: dependencies)),
        now: now)
    let live = LiveRooms(logger: dependencies.logger) { room, after in try await messages.changes(of: room, after: after) }
    let events = ChatEvents(rooms: roomStore, people: people, messages: messages, now: now)
    let blocks = BlockCache(database: database, people: people, logger: dependencies.logger)

    service.add(
        RoomsController(rooms: rooms, nameFromAuth: nameFromAuth),
        RoomsInternalController(
            rooms: rooms,
            pushes: MessagePushes(database: database, rooms: roomStore, messages: messageStore, audience: SQLPushAudienceStore(), now: now)),
        MessagesController(messages: messages),
        ChatModerationController(messages: messages),
        BlocksController(blocks: Blocks(database: database, people: people, cache: blocks, now: now)),
        BlocksInternalController(blocks: Blocks(database: database, people: people, cache: blocks, now: now)))
    try service.publishEvents()
    service.exportPersonalData(ChatPersonalData.export)
    service.consumeEvents(
        ChatEvents.handlers, with: EventConsumer(database: database) { event, sql in try await events.apply(event, on: sql) })
    service.beforeServerStarts { try await rooms.ensureGlobal() }
    service.retain(.roomChanges)
    service.addServices(
        ChangeNotifications(channel: ChangeChannel.chatRooms, database: database, live: live, logger: dependencies.logger), blocks)
    let presence = RoomPresence(
        database: database, store: SQLPresenceStore(), renewal: settings.presenceRenewal, logger: dependencies.logger, now: now)
    service.addServices(presence)
    let sockets = ChatSockets(
        live: live, rooms: rooms, messages: messages, blocks: blocks, database: database, settings: settings, presence: presence)
    service.add(ChatLiveController(sockets: sockets))
    return try service.application(server: LiveSockets.server(router: service.router, maxFrameSize: ChatSockets.maxFrameSize))
}
