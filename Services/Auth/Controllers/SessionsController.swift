import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/auth/...`: register, sign in (password or provider), refresh, sign out.
struct SessionsController: Controller {
    let accounts: Accounts
    let passwords: Passwords
    let addresses: EmailAddresses
    let profiles: Profiles
    let appleNotifications: AppleNotifications

    func register(on router: Router<HuddleRequestContext>) {
        router.on(AuthAPI.register, use: registerAccount)
        router.on(AuthAPI.login, use: login)
        router.on(AuthAPI.oauthLogin, use: oauthLogin)
        router.on(AuthAPI.appleSignIn, use: appleSignIn)
        router.on(AuthAPI.googleSignIn, use: googleSignIn)
        router.on(AuthAPI.appleNotifications, use: receiveAppleNotification)
        router.on(AuthAPI.refresh, use: refresh)
        router.on(AuthAPI.logout, use: logout)
        router.on(AuthAPI.forgotPassword, use: forgotPassword)
        router.on(AuthAPI.resetPassword, use: resetPassword)
        router.on(AuthAPI.verifyEmail, use: verifyEmail)
    }

    /// `POST /v1/auth/email/verify`
    @Sendable func verifyEmail(_ body: VerifyEmailRequest, _ request: Request, _ context: HuddleRequestContext) async throws -> MyProfile {
        try await profiles.me(try await addresses.verify(body))
    }

    /// `POST /v1/auth/password/forgot`
    @Sendable func forgotPassword(_ body: ForgotPasswordRequest, _ request: Request, _ context: HuddleRequestContext) async throws
        -> Accepted
    {
        try await passwords.forgot(body, client: request.clientAddress(context))
        return Accepted()
    }

    /// `POST /v1/auth/password/reset`
    @Sendable func resetPassword(_ body: ResetPasswordRequest, _ request: Request, _ context: HuddleRequestContext) async throws -> Session
    {
        try await fromDevice(request) { try await passwords.reset(body) }
    }

    /// `POST /v1/auth/register`
    @Sendable func registerAccount(_ body: RegisterRequest, _ request: Request, _ context: HuddleRequestContext) async throws -> Session {
        try await fromDevice(request) { try await accounts.register(body) }
    }

    /// `POST /v1/auth/login`
    @Sendable func login(_ body: LoginRequest, _ request: Request, _ context: HuddleRequestContext) async throws -> Session {
        try await fromDevice(request) { try await accounts.login(body, client: request.clientAddress(context)) }
    }

    /// `POST /v1/auth/oauth/{provider}`
    @Sendable func oauthLogin(_ body: OAuthLoginRequest, _ request: Request, _ context: HuddleRequestContext) async throws -> Session {
        let provider = try context.parameters.require("provider")
        guard provider == "facebook" else { throw AuthError.unsupportedProvider(provider) }
        return try await fromDevice(request) { try await accounts.login(facebookToken: body.accessToken) }
    }

    /// `POST /v1/auth/oauth/apple`
    @Sendable func appleSignIn(_ body: AppleSignInRequest, _ request: Request, _ context: HuddleRequestContext) async throws -> Session {
        try await fromDevice(request) { try await accounts.login(apple: body) }
    }

    /// `POST /v1/auth/oauth/google`
    @Sendable func googleSignIn(_ body: GoogleSignInRequest, _ request: Request, _ context: HuddleRequestContext) async throws -> Session {
        try await fromDevice(request) { try await accounts.login(google: body) }
    }

    /// `POST /v1/auth/apple/notifications`
    @Sendable func receiveAppleNotification(_ body: AppleNotificationBody, _ request: Request, _ context: HuddleRequestContext) async throws
        -> AppleNotificationReceipt
    {
        try await appleNotifications.receive(body.payload)
        return AppleNotificationReceipt()
    }

    /// `POST /v1/auth/refresh`
    @Sendable func refresh(_ body: RefreshRequest, _ request: Request, _ context: HuddleRequestContext) async throws -> Session {
        try await fromDevice(request) { try await accounts.refresh(body.refreshToken) }
    }

    /// `POST /v1/auth/logout`
    @Sendable func logout(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await accounts.revoke(context.identity.sessionID)
        return NoContent()
    }

    /// Runs a sign-in or a refresh knowing the device's `User-Agent`, which the session keeps for my list of devices.
    private func fromDevice<Output: Sendable>(_ request: Request, _ work: () async throws -> Output) async throws -> Output {
        try await SignInDevice.$userAgent.withValue(SignInDevice.named(request.headers[.userAgent])) { try await work() }
    }
}
