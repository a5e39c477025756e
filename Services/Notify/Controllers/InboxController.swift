import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/notifications...`: my inbox.
struct InboxController: Controller {
    let notifications: Notifications

    func register(on router: Router<HuddleRequestContext>) {
        router.on(NotifyAPI.inbox) { request, context in try await notifications.inbox(of: context.userID, page: try PageRequest(request)) }
        router.on(NotifyAPI.read) { _, context in
            try await notifications.markRead(try context.parameters.id(NotificationID.self), by: context.userID)
        }
        router.on(NotifyAPI.readAll) { _, context in try await notifications.markAllRead(by: context.userID) }
    }
}
