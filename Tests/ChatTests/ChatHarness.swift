import AuthService
import ChatService
import Contracts
import Foundation
import HuddleEffects
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import Testing

/// Auth and chat on port 0, auth publishing profiles to chat. Teams, games and matches reach chat as
/// catalog and games would send them: their events on `/internal/events`.
struct ChatHarness {
    static let builders = [
        ModuleBuilder.auth,
        ModuleBuilder.chat,
    ]

    let stack: TestStack
    var chat: TestClient { stack.client(.chat) }

    static func with(
        store: TestStore = .sqlite, config: [String: String] = [:], effects: Effects = .system, body: (ChatHarness) async throws -> Void
    ) async throws {
        var settings = ["auth.events.subscribers": "chat"]
        settings.merge(config) { _, new in new }
        try await TestStack.with(builders, store: store, config: settings, effects: effects) { stack in
            try await body(ChatHarness(stack: stack))
        }
    }

    func player(_ name: String = "Chatter") async throws -> Session { try await stack.client(.auth).register(name: name) }

    /// The global room, as `player` lists it.
    func globalRoom(_ player: Session) async throws -> ChatRoom {
        let rooms = try await expect(200, chat.call(ChatAPI.rooms, token: player.accessToken)).decode(Page<ChatRoom>.self)
        return try #require(rooms.items.first { $0.kind == .global })
    }

    func rooms(_ player: Session) async throws -> [ChatRoom] {
        try await expect(200, chat.call(ChatAPI.rooms, query: Query.limit(100), token: player.accessToken)).decode(Page<ChatRoom>.self)
            .items
    }

    /// `timeout`: for sends made many at once, which wait their turn for the client's connections
    /// and the room's lock.
    @discardableResult
    func send(
        _ text: String, to room: RoomID, as player: Session, id: String = UUID().uuidString, timeout: Duration = .seconds(30)
    ) async throws -> TestClient.Response {
        try await chat.call(
            ChatAPI.send, room, body: SendChatMessage(text: text, clientMessageId: id), token: player.accessToken, timeout: timeout)
    }

    func history(_ room: RoomID, as player: Session, query: QueryItems = QueryItems()) async throws -> [ChatMessage] {
        try await expect(200, chat.call(ChatAPI.messages, room, query: query, token: player.accessToken))
            .decode(Page<ChatMessage>.self).items
    }

    /// `player`'s device on the live socket of this chat (or of `baseURL`), subscribed to `room`.
    func socket(_ player: Session, subscribedTo room: RoomID, baseURL: String? = nil) async throws -> ChatSocket {
        let socket = try await ChatSocket.connect(baseURL: baseURL ?? chat.baseURL, chatToken: player.accessToken)
        try socket.send(ChatClientFrame.subscribe(room))
        try #require(try await socket.waitFor { $0.type == .subscribed && $0.roomId == room })
        return socket
    }

    func block(_ blocked: Session, by player: Session) async throws {
        _ = try await expect(200, chat.call(ChatAPI.block, blocked.user.id, token: player.accessToken))
    }

    func unblock(_ blocked: Session, by player: Session) async throws {
        _ = try await expect(204, chat.call(ChatAPI.unblock, blocked.user.id, token: player.accessToken))
    }

    /// Delivers events to chat as their publishers would.
    func deliver(_ events: [(type: any EventKind, aggregate: String, payload: any Encodable)]) async throws {
        try await chat.deliverEvents(events, to: .chat)
    }

    /// A team managed by `manager`, announced as catalog would, with `players` joined; its room.
    func team(_ name: String, manager: Session, players: [Session] = []) async throws -> ChatRoom {
        let team = Team(
            id: TeamID(), name: name, sport: .soccer, privacy: .public, location: Location(lat: 59.437, lng: 24.7536), ageGroup: .adult,
            gender: .coed, skill: .any,
            managerId: manager.user.id, memberCount: 1 + players.count, createdAt: Date())
        try await deliver(
            [(CatalogEvent.teamCreated, team.id.description, CatalogEvent.TeamChanged(team: team))]
                + players.map {
                    (
                        CatalogEvent.membershipChanged, team.id.description,
                        CatalogEvent.MembershipChanged(teamId: team.id, userId: $0.user.id, role: .player, memberCount: 2)
                    )
                })
        return try #require(try await rooms(manager).first { $0.kind == .team && $0.subjectId == team.id.description })
    }

    /// `player` leaves the team of `room`, as catalog would announce it.
    func leave(_ room: ChatRoom, _ player: Session) async throws {
        let team = try #require(room.subjectId.flatMap(TeamID.init))
        try await deliver(
            [
                (
                    CatalogEvent.membershipChanged, team.description,
                    CatalogEvent.MembershipChanged(teamId: team, userId: player.user.id, role: nil, memberCount: 1)
                )
            ])
    }
}
