import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/notifications/preferences`: which categories are pushed to me.
struct PreferencesController: Controller {
    let preferences: Preferences

    func register(on router: Router<HuddleRequestContext>) {
        router.on(NotifyAPI.preferences) { _, context in try await preferences.of(context.userID) }
        router.on(NotifyAPI.setPreferences) { body, _, context in try await preferences.set(body.categories, of: context.userID) }
    }
}
