import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/notifications...`: my inbox.
struct InboxController: Controller {
    let notifications: Notifications

    func register(on router: Router<HuddleRequestContext>) {
        router.on(NotifyAPI.inbox, use: inbox)
        router.on(NotifyAPI.read, use: read)
        router.on(NotifyAPI.readAll, use: readAll)
    }

    /// `GET /v1/notifications`
    @Sendable func inbox(_ request: Request, _ context: AuthenticatedContext) async throws -> InboxPage {
        try await notifications.inbox(of: context.userID, page: try PageRequest(request))
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
