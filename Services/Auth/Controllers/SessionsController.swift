import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/auth/...`: register, sign in (password or provider), refresh, sign out.
struct SessionsController: Controller {
    let accounts: Accounts
    let appleNotifications: AppleNotifications

    func register(on router: Router<HuddleRequestContext>) {
        router.on(AuthAPI.register) { body, _, _ in try await accounts.register(body) }
        router.on(AuthAPI.login) { body, request, context in try await accounts.login(body, client: request.clientAddress(context)) }
        router.on(AuthAPI.oauthLogin) { body, _, context in
            let provider = try context.parameters.require("provider")
            guard provider == "facebook" else { throw AuthError.unsupportedProvider(provider) }
            return try await accounts.login(facebookToken: body.accessToken)
        }
        router.on(AuthAPI.appleSignIn) { body, _, _ in try await accounts.login(apple: body) }
        router.on(AuthAPI.appleNotifications) { body, _, _ in
            try await appleNotifications.receive(body.payload)
            return AppleNotificationReceipt()
        }
        router.on(AuthAPI.refresh) { body, _, _ in try await accounts.refresh(body.refreshToken) }
        router.on(AuthAPI.logout) { _, context in
            try await accounts.revoke(context.identity.sessionID)
            return NoContent()
        }
    }
}
