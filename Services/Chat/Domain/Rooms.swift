import Contracts
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

/// Who may use which room, the rooms I see with what I have not read, direct rooms, read markers.
struct Rooms: Sendable {
    let database: Database
    let rooms: any RoomStore
    let messages: any MessageStore
    let people: any PeopleStore
    let mutes: any MuteStore
    let settings: ChatSettings
    let now: @Sendable () -> Date

    /// What names `shown` for a conditional read: each room's stored version (every message, edit
    /// and deletion raises it) and what is the reader's own: their read marker and mute. The name
    /// is a part too: a team's is renamed with it, a direct room's is the other player's.
    func tagParts(of shown: [ChatRoom]) async throws -> [String] {
        let versions = try await database.read { sql in
            try await RowVersions(of: "rooms", column: "version").versions(of: shown.map(\.id.description), on: sql)
        }
        return shown.map { room in
            let muted = room.muted ? "muted:\(room.mutedUntil.map { "\($0.timeIntervalSince1970)" } ?? "")" : ""
            return "\(room.id)/\(versions[room.id.description] ?? -1)/\(room.readSeq)/\(muted)/\(room.name)"
        }
    }

    static let globalSubject = "global"

    /// The room if `user` may use it; 404 otherwise (a room one may not use is not shown to exist).
    func accessible(_ id: RoomID, by user: UserID, on sql: any SQLDatabase) async throws -> StoredRoom {
        guard let room = try await rooms.room(id, on: sql), room.closedAt == nil, try await mayUse(room, user, on: sql) else {
            throw CommonError.missing(id)
        }
        return room
    }

    /// 404 unless `user` may use the room (media asks, before showing a photo sent there; a send asks
    /// before attaching its photos).
    func requireAccess(to id: RoomID, by user: UserID) async throws {
        _ = try await database.read { sql in try await accessible(id, by: user, on: sql) }
    }

    func mayUse(_ room: StoredRoom, _ user: UserID, on sql: any SQLDatabase) async throws -> Bool {
        switch room.kind {
        case .global, .match: true
        case .team, .game, .direct: try await rooms.isMember(user, of: room.id, on: sql)
        }
    }

    /// My rooms, or the live and upcoming matches' rooms to choose from (`kind` match).
    func list(for user: UserID, kind: RoomKind?, page: PageRequest) async throws -> Page<ChatRoom> {
        let at = now()
        try await ensureGlobal()
        return try await database.read { sql in
            let stored = try await rooms.rooms(
                for: user, kind: kind, matchesFrom: at.addingTimeInterval(-settings.matchRoomTail),
                matchesUntil: at.addingTimeInterval(settings.matchRoomLead), page: page, on: sql)
            var items: [ChatRoom] = []
            for room in stored.items { items.append(try await view(room, for: user, on: sql)) }
            return Page(items: items, nextCursor: stored.nextCursor)
        }
    }

    /// The room as it reads to me. Reading it changes nothing: a match's room becomes mine by `follow`.
    func room(_ id: RoomID, for user: UserID) async throws -> ChatRoom {
        try await database.read { sql in try await view(try await accessible(id, by: user, on: sql), for: user, on: sql) }
    }

    /// A match's room put in my rooms (it then pushes me the messages naming me), by the app or by a
    /// socket subscribing to it; any other room I may use is mine already.
    func follow(_ id: RoomID, by user: UserID) async throws -> ChatRoom {
        try await database.transaction { sql in
            let room = try await accessible(id, by: user, on: sql)
            if room.kind == .match { _ = try await rooms.addMember(user, to: room.id, on: sql) }
            return try await view(room, for: user, on: sql)
        }
    }

    /// A match's room taken out of my rooms. The others follow the team, the game or the other player.
    func unfollow(_ id: RoomID, by user: UserID) async throws -> ChatRoom {
        try await database.transaction { sql in
            let room = try await accessible(id, by: user, on: sql)
            guard room.kind == .match else {
                throw CommonError.forbidden("Only a match's room can be unfollowed; this one is yours while you are in its team or game.")
            }
            _ = try await rooms.removeMember(user, from: room.id, on: sql)
            return try await view(room, for: user, on: sql)
        }
    }

    /// No pushes from the room until `until` (for good when nil), but for messages naming me.
    func mute(_ id: RoomID, by user: UserID, until: Date?) async throws -> ChatRoom {
        if let until, until <= now() { throw CommonError.invalid("until", "must be in the future") }
        return try await database.transaction { sql in
            let room = try await accessible(id, by: user, on: sql)
            try await mutes.mute(id, by: user, until: until, on: sql)
            return try await view(room, for: user, on: sql)
        }
    }

    func unmute(_ id: RoomID, by user: UserID) async throws -> ChatRoom {
        try await database.transaction { sql in
            let room = try await accessible(id, by: user, on: sql)
            try await mutes.unmute(id, by: user, on: sql)
            return try await view(room, for: user, on: sql)
        }
    }

    /// The direct room of `user` and `other`, created on first use with both as members.
    func direct(_ user: UserID, with other: UserID, knownTo auth: (UserID) async throws -> String?) async throws -> ChatRoom {
        guard other != user else { throw ChatError.cannotMessageSelf }
        if try await database.read({ sql in try await people.blockedEitherWay(user, other, on: sql) }) { throw ChatError.blocked }
        guard let name = try await auth(other) else { throw CommonError.invalid("userId", "is not a player") }
        let subject = [user.description, other.description].sorted().joined(separator: ":")
        return try await database.transaction { sql in
            try await people.setName(name, of: other, on: sql)
            let room = try await rooms.upsert(kind: .direct, subject: subject, name: "", startsAt: nil, endedAt: nil, at: now(), on: sql)
            for member in [user, other] { _ = try await rooms.addMember(member, to: room.id, on: sql) }
            return try await view(room, for: user, on: sql)
        }
    }

    /// Moves my read marker forward to `seq` (at most the room's last message).
    func markRead(_ seq: Int, in id: RoomID, by user: UserID) async throws -> ChatRoom {
        try await database.transaction { sql in
            let room = try await accessible(id, by: user, on: sql)
            try await rooms.markRead(min(seq, room.lastSeq), by: user, in: id, on: sql)
            return try await view(room, for: user, on: sql)
        }
    }

    /// The global room exists from the first request on.
    func ensureGlobal() async throws {
        let exists = try await database.read { sql in try await rooms.room(kind: .global, subject: Self.globalSubject, on: sql) != nil }
        guard !exists else { return }
        try await database.transaction { sql in
            if try await rooms.room(kind: .global, subject: Self.globalSubject, on: sql) != nil { return }
            _ = try await rooms.upsert(
                kind: .global, subject: Self.globalSubject, name: ShownWords.everyone.english, startsAt: nil, endedAt: nil, at: now(),
                on: sql)
        }
    }

    /// The room as `user` sees it: a direct room is named after the other player.
    private func view(_ room: StoredRoom, for user: UserID, on sql: any SQLDatabase) async throws -> ChatRoom {
        let readSeq = try await rooms.readSeq(of: user, in: room.id, on: sql)
        let last = try await messages.history(of: room.id, .before(nil), limit: 1, viewer: user, on: sql).first
        var name = ShownWords.shown(room.name), subject: String? = room.kind == .global ? nil : room.subject
        if room.kind == .direct {
            let other = room.subject.split(separator: ":").map(String.init).first { $0 != user.description }.flatMap(UserID.init)
            subject = other?.description
            if let other { name = ShownWords.shown(try await people.names(of: [other], on: sql)[other] ?? ShownWords.player.english) }
        }
        let mute = try await mutes.mute(of: room.id, by: user, at: now(), on: sql)
        return ChatRoom(
            id: room.id, kind: room.kind, name: name, subjectId: subject,
            unreadCount: try await messages.unread(in: room.id, after: readSeq, viewer: user, cap: settings.unreadCap, on: sql),
            lastSeq: room.lastSeq, readSeq: readSeq, lastMessage: last, muted: mute != nil, mutedUntil: mute?.until)
    }
}
