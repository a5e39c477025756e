/// Notify's operations: my devices for push, my inbox, and which categories are pushed to me.
public enum NotifyAPI {
    public static let devices = Endpoint<SignedIn, NoBody, Page<Device>>(
        .get, "/v1/notifications/devices", owner: .notify, summary: "My devices that receive pushes, most recent first",
        query: Query.paging)
    public static let registerDevice = Endpoint<SignedIn, RegisterDevice, Device>(
        .post, "/v1/notifications/devices", owner: .notify,
        summary: "Register a push token: apns (64 to 200 hex digits, with its environment — production by default — and topic, "
            + "the app's bundle id) or fcm (no environment or topic). Registering it again refreshes it, and a token another "
            + "player registered moves to me",
        status: 201)
    public static let removeDevice = Endpoint<SignedIn, NoBody, NoContent>(
        .delete, "/v1/notifications/devices/{token}", owner: .notify,
        summary: "Stop pushing to one of my devices (404 for a token that is not mine)")
    public static let inbox = Endpoint<SignedIn, NoBody, InboxPage>(
        .get, "/v1/notifications", owner: .notify,
        summary: "My notifications, newest first, with how many of them are unread", query: Query.paging,
        traits: .conditional)
    public static let read = Endpoint<SignedIn, NoBody, InboxUnread>(
        .post, "/v1/notifications/{id}/read", owner: .notify,
        summary: "Mark one of my notifications read (again is fine); answers how many are still unread")
    public static let readAll = Endpoint<SignedIn, NoBody, InboxUnread>(
        .post, "/v1/notifications/read-all", owner: .notify, summary: "Mark all my notifications read")
    public static let preferences = Endpoint<SignedIn, NoBody, NotificationPreferences>(
        .get, "/v1/notifications/preferences", owner: .notify,
        summary: "Every category with whether it is pushed to me (all are, until I turn one off)")
    public static let setPreferences = Endpoint<SignedIn, NotificationPreferences, NotificationPreferences>(
        .put, "/v1/notifications/preferences", owner: .notify,
        summary: "Turn categories on or off for push (those not named keep their setting; the inbox keeps everything)")

    public static let all: [APIOperation] = [
        devices.operation, registerDevice.operation, removeDevice.operation, inbox.operation, read.operation, readAll.operation,
        preferences.operation, setPreferences.operation,
    ]
}

/// Limits on notify's fields, stated by the document and checked by the service.
public enum NotifyLimits {
    /// An APNs token is 64 hex digits today (Apple may lengthen it); an FCM token is about 160
    /// characters of base64url and `:`.
    public static let token = JSONSchema.text(fcmTokenLength).pattern(JSONSchema.whole("[A-Za-z0-9_:.-]*"))
    /// Far above FCM's tokens, and within what PostgreSQL's B-tree takes as a key (a third of an 8 KB
    /// page, about 2,700 bytes): a token is the key of its device, and a random one of 4,000
    /// characters failed to store (500) when the limit was 4,096.
    public static let fcmTokenLength = 8...2048
    /// An app's bundle id, e.g. `app.huddle.ios`.
    public static let topic = JSONSchema.text(1...255).pattern(JSONSchema.whole("[A-Za-z0-9.-]*"))
}

extension RegisterDevice: FieldConstraints {
    public static var constraints: [String: JSONSchema] { ["token": NotifyLimits.token, "topic": NotifyLimits.topic] }
}
