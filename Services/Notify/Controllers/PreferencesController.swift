import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/notifications/preferences`: which categories are pushed to me.
struct PreferencesController: Controller {
    let preferences: Preferences

    func register(on router: Router<HuddleRequestContext>) {
        router.on(NotifyAPI.preferences, use: getPreferences)
        router.on(NotifyAPI.setPreferences, use: setPreferences)
    }

    /// `GET /v1/notifications/preferences`
    @Sendable func getPreferences(_ request: Request, _ context: AuthenticatedContext) async throws -> NotificationPreferences {
        try await preferences.of(context.userID)
    }

    /// `PUT /v1/notifications/preferences`
    @Sendable func setPreferences(_ body: NotificationPreferences, _ request: Request, _ context: AuthenticatedContext) async throws
        -> NotificationPreferences
    {
        try await preferences.set(body.categories, of: context.userID)
    }
}
