public import Foundation

public enum NotificationTag: NamedThing { public static let noun = "notification" }
public typealias NotificationID = TypedID<NotificationTag>

/// Where a device's pushes go: Apple's APNs or Google's FCM.
public enum PushPlatform: String, Codable, Sendable, CaseIterable, WireEnum {
    case apns, fcm
}

/// Which APNs a token belongs to: a development build's tokens are only known to the sandbox.
public enum APNsEnvironment: String, Codable, Sendable, CaseIterable, WireEnum {
    case sandbox, production
}

/// What a notification is about; a user may turn any category off for pushes.
public enum NotificationCategory: String, Codable, Sendable, CaseIterable, WireEnum {
    case newGame, invitation, joinRequest, requestApproved, waitlistPromoted, addedToRound, reminder, newFollower
    /// A team or league passed to me because its manager deleted their account.
    case becameManager
    /// What came of my report, or a moderator's action against me or what I wrote.
    case moderation
    /// A ticket of mine: its receipt when placed, its outcome when settled.
    case ticket
    /// A game I am on moved in time or place (`data` has the old and the new).
    case gameChanged
    /// A game I am on was cancelled.
    case gameCancelled
    /// A game I was invited to waits for my answer.
    case rsvpReminder
    /// A message in a room of mine, while my app was not showing it (never kept in the inbox).
    case chatMessage
    /// A message naming me (`@Name`), pushed even from a room I muted (never kept in the inbox).
    case mention
}

/// `POST /v1/notifications/devices`. `environment` and `topic` (the app's bundle id) are for APNs.
public struct RegisterDevice: Codable, Equatable, Sendable {
    public var platform: PushPlatform
    public var token: String
    public var environment: APNsEnvironment?
    public var topic: String?

    public init(platform: PushPlatform, token: String, environment: APNsEnvironment? = nil, topic: String? = nil) {
        self.platform = platform
        self.token = token
        self.environment = environment
        self.topic = topic
    }
}

/// A device of mine that receives pushes.
public struct Device: Codable, Equatable, Sendable {
    public var platform: PushPlatform
    public var token: String
    public var environment: APNsEnvironment?
    public var topic: String?
    public var registeredAt: Date

    public init(platform: PushPlatform, token: String, environment: APNsEnvironment?, topic: String?, registeredAt: Date) {
        self.platform = platform
        self.token = token
        self.environment = environment
        self.topic = topic
        self.registeredAt = registeredAt
    }
}

/// The ids an app needs to open the screen a notification is about.
public struct NotificationData: Codable, Equatable, Sendable {
    public var gameId: GameID?
    public var teamId: TeamID?
    public var roundId: RoundID?
    public var userId: UserID?
    public var leagueId: LeagueID?
    public var ticketId: TicketID?
    /// A moved game's new and former start.
    public var startsAt: Date?
    public var previousStartsAt: Date?
    /// A moved game's new and former place.
    public var location: Location?
    public var previousLocation: Location?
    /// A chat push's room and the latest message it tells of.
    public var roomId: RoomID?
    public var messageId: ChatMessageID?
    /// Answers the game from the notification without a session (`POST /v1/games/{id}/rsvp`), until kickoff.
    public var rsvpToken: String?

    public init(
        gameId: GameID? = nil, teamId: TeamID? = nil, roundId: RoundID? = nil, userId: UserID? = nil, leagueId: LeagueID? = nil,
        ticketId: TicketID? = nil, startsAt: Date? = nil, previousStartsAt: Date? = nil, location: Location? = nil,
        previousLocation: Location? = nil, roomId: RoomID? = nil, messageId: ChatMessageID? = nil
    ) {
        self.roomId = roomId
        self.messageId = messageId
        self.startsAt = startsAt
        self.previousStartsAt = previousStartsAt
        self.location = location
        self.previousLocation = previousLocation
        self.gameId = gameId
        self.teamId = teamId
        self.roundId = roundId
        self.userId = userId
        self.leagueId = leagueId
        self.ticketId = ticketId
    }
}

/// One entry of my inbox.
public struct InboxNotification: Codable, Equatable, Sendable {
    public var id: NotificationID
    public var category: NotificationCategory
    public var title: String
    public var body: String
    public var data: NotificationData
    public var createdAt: Date
    public var readAt: Date?

    public init(
        id: NotificationID, category: NotificationCategory, title: String, body: String, data: NotificationData, createdAt: Date,
        readAt: Date? = nil
    ) {
        self.id = id
        self.category = category
        self.title = title
        self.body = body
        self.data = data
        self.createdAt = createdAt
        self.readAt = readAt
    }
}

/// A page of my inbox, newest first, with how many of all my notifications are unread.
public struct InboxPage: Codable, Equatable, Sendable {
    public var items: [InboxNotification]
    public var nextCursor: String?
    public var unreadCount: Int

    public init(items: [InboxNotification], nextCursor: String?, unreadCount: Int) {
        self.items = items
        self.nextCursor = nextCursor
        self.unreadCount = unreadCount
    }

    private enum CodingKeys: String, CodingKey { case items, nextCursor, unreadCount }

    // `nextCursor` is always present, `null` on the last page, as in every list.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)
        try container.encode(unreadCount, forKey: .unreadCount)
    }
}

/// What marking read answers: how many of my notifications are still unread.
public struct InboxUnread: Codable, Equatable, Sendable {
    public var unreadCount: Int
    public init(unreadCount: Int) { self.unreadCount = unreadCount }
}

/// Which categories are pushed to me: `{"categories": {"newGame": true, "reminder": false, …}}`. A
/// `PUT` changes the categories it names; the answer names every category.
public struct NotificationPreferences: Codable, Equatable, Sendable {
    public var categories: CategorySwitches
    public init(categories: CategorySwitches) { self.categories = categories }
}

/// On or off per category, keyed by `NotificationCategory`'s raw value on the wire.
public struct CategorySwitches: Codable, Equatable, Sendable, SchemaDescribed {
    public var switches: [NotificationCategory: Bool]

    public init(_ switches: [NotificationCategory: Bool]) { self.switches = switches }

    public subscript(category: NotificationCategory) -> Bool? { switches[category] }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        var switches: [NotificationCategory: Bool] = [:]
        for key in container.allKeys {
            guard let category = NotificationCategory(rawValue: key.stringValue) else {
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: container,
                    debugDescription: "is not a category: \(NotificationCategory.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            switches[category] = try container.decode(Bool.self, forKey: key)
        }
        self.switches = switches
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for category in NotificationCategory.allCases {
            if let on = switches[category] { try container.encode(on, forKey: Key(stringValue: category.rawValue)) }
        }
    }

    public static var schema: JSONSchema {
        var schema = JSONSchema.object
        schema.properties = Dictionary(uniqueKeysWithValues: NotificationCategory.allCases.map { ($0.rawValue, JSONSchema.boolean) })
        schema.closed = true
        return schema
    }
    public static var schemaSample: CategorySwitches { CategorySwitches([:]) }
}
