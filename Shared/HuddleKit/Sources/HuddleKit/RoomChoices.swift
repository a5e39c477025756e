public import Contracts
public import Foundation

extension HuddleClient {
    /// Mutes a room: its messages are no longer pushed to this player, except those naming them
    /// (`@Name`). Until `until`, or until unmuted when nil. Answers the room, with `muted` and `mutedUntil`.
    @discardableResult
    public func mute(_ room: RoomID, until: Date? = nil) async throws -> ChatRoom {
        try await send(ChatAPI.mute, room, body: MuteRoomRequest(until: until))
    }

    /// Puts a match's room in this player's rooms (subscribing to it on the live socket does too).
    @discardableResult
    public func follow(_ room: RoomID) async throws -> ChatRoom {
        try await send(ChatAPI.follow, room)
    }

    /// Takes a match's room out of this player's rooms.
    @discardableResult
    public func unfollow(_ room: RoomID) async throws -> ChatRoom {
        try await send(ChatAPI.unfollow, room)
    }

    /// Unmutes a room: its messages are pushed again.
    @discardableResult
    public func unmute(_ room: RoomID) async throws -> ChatRoom {
        try await send(ChatAPI.unmute, room)
    }
}
