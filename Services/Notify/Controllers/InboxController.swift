import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/notifications...`: my inbox.
struct InboxController: Controller {
    let notifications: Notifications

    func register(on router: Router<HuddleRequestContext>) {
        router.on(NotifyAPI.inbox, conditional: inbox)
        router.on(NotifyAPI.read, use: read)
        router.on(NotifyAPI.readAll, use: readAll)
    }

    /// `GET /v1/notifications`
    /// A notification never changes but for being read, so the page is named by its items' ids
    /// and read marks, with the unread count (which items on later pages change).
    @Sendable func inbox(_ request: Request, _ context: AuthenticatedContext) async throws -> Versioned<InboxPage> {
        let page = try await notifications.inbox(of: context.userID, page: try PageRequest(request))
        let items = page.items.map { "\($0.id)/\($0.readAt == nil ? "unread" : "read")" }
        return Versioned(page, parts: items + [page.nextCursor ?? "", "\(page.unreadCount)"])
    }

    /// `POST /v1/notifications/{id}/read`
    @Sendable func read(_ request: Request, _ context: AuthenticatedContext) async throws -> InboxUnread {
        try await notifications.markRead(try context.parameters.id(NotificationID.self), by: context.userID)
    }

    /// `POST /v1/notifications/read-all`
    @Sendable func readAll(_ request: Request, _ context: AuthenticatedContext) async throws -> InboxUnread {
        try await notifications.markAllRead(by: context.userID)
    }
}
