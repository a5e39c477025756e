import Configuration
import Foundation
import NIOCore
import ServiceHTTP

/// Chat's rules that are configuration, read once at start.
struct ChatSettings: Sendable {
    /// Each user may send `floodBurst` messages to a room at once, then one per `floodInterval`.
    var floodBurst: Int
    var floodInterval: TimeInterval
    /// Unread counts stop at this (an app shows "9,999+").
    var unreadCap: Int
    /// Match rooms are listed from this long before kickoff until this long after the match ends.
    var matchRoomLead: TimeInterval
    var matchRoomTail: TimeInterval
    /// What a socket may hold unsent before its device is disconnected (it resumes from its seq):
    /// live messages and answers, a subscription's catch-up counting as one.
    var socketBuffer: Int
    /// How long such a device has to take what its socket holds before the connection is cut: one
    /// that stopped reading would otherwise keep it open for ever (its writes wait for room).
    var socketDrain: TimeAmount
    /// How often an instance renews the record of the rooms its sockets follow (each record lasts three renewals).
    var presenceRenewal: Duration

    /// Keys: `chat.flood.burst` (default 10), `chat.flood.interval.ms` (1000), `chat.unread.cap` (9999),
    /// `chat.match.lead.ms` (86400000: a day), `chat.match.tail.ms` (10800000: three hours),
    /// `chat.socket.buffer` (1000 sends), `chat.socket.drain.ms` (10000), `chat.presence.renew.ms` (15000).
    init(reader: ConfigReader) {
        floodBurst = max(1, reader.integer("chat.flood.burst", default: 10))
        floodInterval = max(0.001, reader.milliseconds("chat.flood.interval.ms", default: 1000).seconds)
        unreadCap = max(1, reader.integer("chat.unread.cap", default: 9999))
        matchRoomLead = reader.milliseconds("chat.match.lead.ms", default: 86_400_000).seconds
        matchRoomTail = reader.milliseconds("chat.match.tail.ms", default: 10_800_000).seconds
        socketBuffer = max(10, reader.integer("chat.socket.buffer", default: 1000))
        socketDrain = TimeAmount(max(.milliseconds(1), reader.milliseconds("chat.socket.drain.ms", default: 10_000)))
        presenceRenewal = max(.milliseconds(100), reader.milliseconds("chat.presence.renew.ms", default: 15_000))
    }
}
