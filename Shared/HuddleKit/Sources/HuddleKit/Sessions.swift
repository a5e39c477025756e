public import Contracts
public import Foundation

/// Signing in and out. The session is kept in the client's `TokenStore`; `sessionEvents()` tells
/// the app when it starts, is refreshed and ends.
extension HuddleClient {
    /// Creates an account and signs in with it.
    @discardableResult
    public func register(email: String, password: String, name: String) async throws -> SessionUser {
        await begin(try await send(AuthAPI.register, body: RegisterRequest(email: email, password: password, name: name)))
    }

    /// Registers, then uploads `picture` (a JPEG, PNG, HEIC or WebP photo) as the new player's profile
    /// picture, as a sign-up screen with a camera button does. The account stays if the picture is
    /// refused: the error is the picture's problem, and the player is signed in.
    @discardableResult
    public func register(email: String, password: String, name: String, picture: Data, contentType: MediaContentType = .jpeg)
        async throws -> SessionUser
    {
        var user = try await register(email: email, password: password, name: name)
        let profile = try await setProfilePicture(picture, contentType: contentType)
        user.pictureUrl = profile.pictureUrl
        return user
    }

    @discardableResult
    /// `code`: the authenticator's current code (or a recovery code), for an account with a second
    /// factor on; without it such an account's sign-in fails with `SECOND_FACTOR_REQUIRED`.
    public func signIn(email: String, password: String, code: String? = nil) async throws -> SessionUser {
        await begin(try await send(AuthAPI.login, body: LoginRequest(email: email, password: password, code: code)))
    }

    /// Signs in with an access token from the Facebook SDK.
    @discardableResult
    public func signIn(facebookAccessToken: String) async throws -> SessionUser {
        await begin(try await send(AuthAPI.oauthLogin, "facebook", body: OAuthLoginRequest(accessToken: facebookAccessToken)))
    }

    /// Signs in with what `ASAuthorizationAppleIDCredential` gave the app: its identity token (as
    /// text), authorization code, the raw nonce whose SHA-256 hex the request carried, and the name
    /// Apple gives on the first sign-in only.
    @discardableResult
    public func signInWithApple(
        identityToken: String, authorizationCode: String?, rawNonce: String, name: AppleSignInRequest.Name? = nil
    ) async throws -> SessionUser {
        let request = AppleSignInRequest(identityToken: identityToken, authorizationCode: authorizationCode, rawNonce: rawNonce, name: name)
        return await begin(try await send(AuthAPI.appleSignIn, body: request))
    }

    /// Signs in with what Google's Sign-In SDK gave the app: the ID token, and the nonce the app put in
    /// its request when it put one (Android phones sign in this way).
    @discardableResult
    public func signInWithGoogle(idToken: String, nonce: String? = nil) async throws -> SessionUser {
        await begin(try await send(AuthAPI.googleSignIn, body: GoogleSignInRequest(idToken: idToken, nonce: nonce)))
    }

    /// "Forgot password?": mails a reset link (and its token) to `email` if it has an account. The
    /// answer is the same either way, so tell the player to look in their mail, whatever happens.
    public func forgotPassword(email: String) async throws {
        _ = try await send(AuthAPI.forgotPassword, body: ForgotPasswordRequest(email: email))
    }

    /// Sets a new password with the reset mail's token (the `token` of the link the app opened, or
    /// the code the player typed) and signs in. The account's other devices are signed out.
    @discardableResult
    public func resetPassword(token: String, newPassword: String) async throws -> SessionUser {
        await begin(try await send(AuthAPI.resetPassword, body: ResetPasswordRequest(token: token, password: newPassword)))
    }

    /// Changes the signed-in player's password, proven by the current one; their other devices are
    /// signed out, this one stays signed in.
    public func changePassword(current: String, new: String) async throws {
        _ = try await send(AuthAPI.changePassword, body: ChangePasswordRequest(currentPassword: current, newPassword: new))
    }

    /// Proves an address with the token mailed to it (the link's `token`): the account's own, or the
    /// new one `changeEmail` asked for, which then becomes the account's.
    @discardableResult
    public func verifyEmail(token: String) async throws -> MyProfile {
        try await send(AuthAPI.verifyEmail, body: VerifyEmailRequest(token: token))
    }

    /// Mails the signed-in player's verification link again.
    public func resendVerification() async throws { _ = try await send(AuthAPI.resendVerification) }

    /// Asks to move the account to `email` (its password proves it's the owner, when it has one): the
    /// new address gets a link, the old one a notice; nothing changes until the link is used.
    public func changeEmail(to email: String, password: String?) async throws {
        _ = try await send(AuthAPI.changeEmail, body: ChangeEmailRequest(email: email, password: password))
    }

    /// Starts a second factor: the secret to show in an authenticator app (or its `otpauth://` URI as
    /// a QR code). It is off until `confirmSecondFactor` with a first code.
    public func setUpSecondFactor() async throws -> SecondFactorSetup { try await send(AuthAPI.setUpSecondFactor) }

    /// Turns the second factor on; answers the recovery codes to show once.
    public func confirmSecondFactor(code: String) async throws -> [String] {
        try await send(AuthAPI.confirmSecondFactor, body: SecondFactorCode(code: code)).recoveryCodes
    }

    /// Turns the second factor off, proven by a code or a recovery code.
    public func turnOffSecondFactor(code: String) async throws {
        _ = try await send(AuthAPI.turnOffSecondFactor, body: SecondFactorCode(code: code))
    }

    /// The player's signed-in devices, most recently used first; `current` is this one.
    public func signedInDevices() async throws -> [DeviceSession] { try await send(AuthAPI.sessions).items }

    /// Signs one of the player's devices out at once (a lost phone): its next call is refused.
    public func signOut(device session: SessionID) async throws { _ = try await send(AuthAPI.endSession, session) }

    /// Deletes the signed-in account for good, proven by its password typed again; every session
    /// ends, here too. App Review asks apps that make accounts to offer this.
    public func deleteAccount(password: String) async throws {
        _ = try await send(AuthAPI.deleteMe, body: DeleteAccountRequest(password: password))
        await forgetDevice()
        await sessions.end(.signedOut)
    }

    /// Deletes the signed-in account, proven by a sign-in with its provider just made: a Sign in with
    /// Apple identity token, or a Facebook access token.
    public func deleteAccount(provider: DeleteAccountRequest.Provider, token: String) async throws {
        _ = try await send(AuthAPI.deleteMe, body: DeleteAccountRequest(provider: provider, token: token))
        await forgetDevice()
        await sessions.end(.signedOut)
    }

    /// Ends the session on the server (when it answers) and here, after sending the writes still
    /// queued (those the server cannot be reached for are dropped with the rest of what the device
    /// kept: the next player on this phone must not see or send them).
    public func signOut() async {
        _ = await sendQueuedWrites()
        _ = try? await send(AuthAPI.logout)
        await forgetDevice()
        await sessions.end(.signedOut)
    }

    /// Clears what this device kept for the player: the answers read and the writes queued.
    private func forgetDevice() async {
        await keptReads?.clear()
        await queuedWrites?.clear()
    }

    /// Who is signed in, or nil.
    public var currentUser: SessionUser? {
        get async { await sessions.user }
    }

    /// The session's events from now on, for as long as the stream is read.
    public func sessionEvents() async -> AsyncStream<SessionEvent> { await sessions.events() }

    private func begin(_ session: Session) async -> SessionUser {
        await sessions.start(session)
        return session.user
    }
}
