import Contracts
import Hummingbird
import ServiceKit

/// `/v1/notifications...`: my inbox.
struct InboxController: Controller {
    let notifications: Notifications

    func register(on router: Router<HuddleRequestContext>) {
        router.on(NotifyAPI.inbox) { request, context in try await notifications.inbox(of: context.userID, page: try PageRequest(request)) }
        router.on(NotifyAPI.read) { _, context in
            let id = try context.parameters.id(
                as: NotificationID.self, missing: "No notification with id \(context.parameters.get("id") ?? "").")
            return try await notifications.markRead(id, by: context.userID)
        }
        router.on(NotifyAPI.readAll) { _, context in try await notifications.markAllRead(by: context.userID) }
    }
}
