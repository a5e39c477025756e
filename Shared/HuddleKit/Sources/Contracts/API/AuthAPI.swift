/// Auth's operations: accounts, sessions, profiles and follows.
public enum AuthAPI {
    public static let register = Endpoint<Anyone, RegisterRequest, Session>(
        .post, "/v1/auth/register", owner: .auth, summary: "Create an account", status: 201,
        problems: [.emailTaken, .tooManyAttempts, .contentRefused])
    public static let login = Endpoint<Anyone, LoginRequest, Session>(
        .post, "/v1/auth/login", owner: .auth, summary: "Sign in with email and password",
        problems: [.invalidCredentials, .tooManyAttempts, .accountSuspended, .secondFactorRequired])
    public static let oauthLogin = Endpoint<Anyone, OAuthLoginRequest, Session>(
        .post, "/v1/auth/oauth/{provider}", owner: .auth,
        summary: "Sign in with a provider's access token (facebook); the account is made on first use and linked by verified email",
        pathParameters: ["provider": .oneOf(["facebook"])],
        problems: [.invalidOAuthToken, .unknownProvider, .oauthProviderUnavailable, .accountSuspended])
    public static let appleSignIn = Endpoint<Anyone, AppleSignInRequest, Session>(
        .post, "/v1/auth/oauth/apple", owner: .auth,
        summary: "Sign in with Apple: the identity token is verified against Apple's keys (issuer, audience, expiry, and the "
            + "nonce as the SHA-256 hex of rawNonce); the account is keyed by Apple's user id, made on first use and linked by "
            + "verified email; name is what Apple gives the app on the first sign-in only",
        problems: [.invalidProviderToken, .oauthProviderUnavailable, .accountSuspended])
    public static let googleSignIn = Endpoint<Anyone, GoogleSignInRequest, Session>(
        .post, "/v1/auth/oauth/google", owner: .auth,
        summary: "Sign in with Google: the ID token is verified against Google's keys (RS256 by kid, issuer accounts.google.com, "
            + "audience one of the deployment's client ids, expiry, and the nonce when sent); the account is keyed by Google's user id, "
            + "made on first use and linked by verified email",
        problems: [.invalidProviderToken, .oauthProviderUnavailable, .accountSuspended])
    public static let appleNotifications = Endpoint<Anyone, AppleNotificationBody, AppleNotificationReceipt>(
        .post, "/v1/auth/apple/notifications", owner: .auth,
        summary: "Sign in with Apple's server-to-server notifications (a JWT signed by Apple): consent-revoked ends the member's "
            + "sessions and unlinks Apple, account-delete deletes the account, email-disabled and email-enabled are recorded",
        problems: [.invalidProviderToken, .oauthProviderUnavailable])
    public static let refresh = Endpoint<Anyone, RefreshRequest, Session>(
        .post, "/v1/auth/refresh", owner: .auth,
        summary: "Exchange a refresh token for a new one; the old one stops working, and a reused one ends the session. Each "
            + "refresh keeps the session another 30 days (auth.session.idle.ms), up to a year from the sign-in (auth.session.max.ms)",
        problems: [.invalidRefreshToken, .accountSuspended])
    public static let forgotPassword = Endpoint<Anyone, ForgotPasswordRequest, Accepted>(
        .post, "/v1/auth/password/forgot", owner: .auth,
        summary: "Mail a one-time password reset token (a link and the token itself) to the address, if it has an account: the "
            + "answer is the same whether or not it does; a later request replaces the token",
        status: 202, problems: [.tooManyAttempts])
    public static let resetPassword = Endpoint<Anyone, ResetPasswordRequest, Session>(
        .post, "/v1/auth/password/reset", owner: .auth,
        summary: "Set a new password with a mailed reset token and sign in; every other session ends and the owner is told by mail",
        problems: [.invalidToken, .accountSuspended])
    public static let changePassword = Endpoint<SignedIn, ChangePasswordRequest, NoContent>(
        .put, "/v1/users/me/password", owner: .auth,
        summary: "Change my password, proving the current one; my other sessions end and I am told by mail (an account without "
            + "a password sets one with a reset)",
        problems: [.reauthenticationRequired])
    public static let logout = Endpoint<SignedIn, NoBody, NoContent>(
        .post, "/v1/auth/logout", owner: .auth, summary: "End the current session: its refresh token is revoked")

    public static let verifyEmail = Endpoint<Anyone, VerifyEmailRequest, MyProfile>(
        .post, "/v1/auth/email/verify", owner: .auth,
        summary: "Prove an address with the token mailed to it: the account's own (mailed at registration), or the new one an "
            + "address change moves the account to",
        problems: [.invalidToken, .emailTaken])
    public static let resendVerification = Endpoint<SignedIn, NoBody, Accepted>(
        .post, "/v1/auth/email/verification", owner: .auth,
        summary: "Mail my address's verification again (nothing when it is proven already)", status: 202, problems: [.tooManyAttempts])
    public static let changeEmail = Endpoint<SignedIn, ChangeEmailRequest, Accepted>(
        .put, "/v1/users/me/email", owner: .auth,
        summary: "Move my account to a new address, proving my password when it has one: a token goes to the new address and a "
            + "notice to the old; the address changes once the token is used. A taken address is answered the same and mailed nothing",
        status: 202, problems: [.reauthenticationRequired, .tooManyAttempts])
    public static let setUpSecondFactor = Endpoint<SignedIn, NoBody, SecondFactorSetup>(
        .post, "/v1/users/me/second-factor", owner: .auth,
        summary:
            "Start a second factor (TOTP, RFC 6238: SHA-1, 6 digits, 30 s): a new secret for an authenticator app; off until confirmed",
        problems: [.secondFactorState])
    public static let confirmSecondFactor = Endpoint<SignedIn, SecondFactorCode, RecoveryCodes>(
        .post, "/v1/users/me/second-factor/confirm", owner: .auth,
        summary: "Turn the second factor on with a first code; answers ten single-use recovery codes, shown once. From then on a "
            + "password sign-in needs a code",
        problems: [.secondFactorState])
    public static let turnOffSecondFactor = Endpoint<SignedIn, SecondFactorCode, NoContent>(
        .delete, "/v1/users/me/second-factor", owner: .auth, summary: "Turn the second factor off, proven by a code or a recovery code")
    public static let sessions = Endpoint<SignedIn, NoBody, Page<DeviceSession>>(
        .get, "/v1/users/me/sessions", owner: .auth,
        summary: "My signed-in devices, most recently used first; current marks this one")
    public static let endSession = Endpoint<SignedIn, NoBody, NoContent>(
        .delete, "/v1/users/me/sessions/{id}", owner: .auth,
        summary: "Sign a device of mine out: its session is revoked at once, for every module")
    public static let me = Endpoint<SignedIn, NoBody, MyProfile>(.get, "/v1/users/me", owner: .auth, summary: "My profile")
    public static let updateMe = Endpoint<SignedIn, UpdateProfileRequest, MyProfile>(
        .patch, "/v1/users/me", owner: .auth,
        summary: "Change my profile; absent fields stay. pictureMediaId is one of my completed avatar uploads (picture and "
            + "pictureUrl then show its sizes); pictureUrl or pictureMediaId null removes the picture; locale (BCP 47: en, et, it; "
            + "others read English) is the language pushes, the inbox and mails are written in",
        problems: [.contentRefused, .mediaNotAttachable, .dependencyUnavailable])
    public static let deleteMe = Endpoint<SignedIn, DeleteAccountRequest, NoContent>(
        .delete, "/v1/users/me", owner: .auth,
        summary: "Delete my account, proving a recent sign-in with my password or a fresh Apple identity token or Facebook access "
            + "token: every session ends and sign-in is refused at once, the email is free again, Sign in with Apple is revoked at "
            + "Apple, and every service then erases my personal data",
        status: 204, problems: [.reauthenticationRequired])
    public static let requestExport = Endpoint<SignedIn, NoBody, DataExport>(
        .post, "/v1/users/me/exports", owner: .auth,
        summary: "Ask for a copy of everything Huddle holds of me, gathered from every service; while one is being gathered, "
            + "asking again answers it",
        status: 202)
    public static let export = Endpoint<SignedIn, NoBody, DataExport>(
        .get, "/v1/users/me/exports/{id}", owner: .auth,
        summary: "My export: pending, then ready with the document (keyed by module) until it expires; only its owner sees it")
    public static let deletionProgress = Endpoint<SignedIn, NoBody, DeletionProgress>(
        .get, "/v1/admin/deletions/{id}", owner: .auth,
        summary: "Administrators: a deleted account by its user id, and whether each service has erased its data",
        problems: [.forbidden])
    public static let following = Endpoint<SignedIn, NoBody, Page<PublicProfile>>(
        .get, "/v1/users/me/following", owner: .auth, summary: "Players I follow, most recent first", query: Query.paging)
    public static let followers = Endpoint<SignedIn, NoBody, Page<PublicProfile>>(
        .get, "/v1/users/me/followers", owner: .auth, summary: "Players who follow me, most recent first", query: Query.paging)
    public static let matchFriends = Endpoint<SignedIn, FriendMatchRequest, FriendMatchResponse>(
        .post, "/v1/users/me/friends/match", owner: .auth, summary: "Which of these Facebook friends are members")
    public static let profile = Endpoint<SignedIn, NoBody, PublicProfile>(
        .get, "/v1/users/{id}", owner: .auth, summary: "A player's public profile")
    public static let follow = Endpoint<SignedIn, NoBody, NoContent>(
        .put, "/v1/users/{id}/follow", owner: .auth, summary: "Follow a player (idempotent)", problems: [.cannotFollowSelf])
    public static let unfollow = Endpoint<SignedIn, NoBody, NoContent>(
        .delete, "/v1/users/{id}/follow", owner: .auth, summary: "Unfollow a player (idempotent)")
    public static let keys = Endpoint<Anyone, NoBody, JSONWebKeySet>(
        .get, "/.well-known/jwks.json", owner: .auth, summary: "The public keys that verify access tokens")

    public static let all: [APIOperation] = [
        register.operation, login.operation, oauthLogin.operation, appleSignIn.operation, googleSignIn.operation,
        appleNotifications.operation, refresh.operation,
        logout.operation, forgotPassword.operation, resetPassword.operation, changePassword.operation, verifyEmail.operation,
        resendVerification.operation,
        changeEmail.operation, setUpSecondFactor.operation, confirmSecondFactor.operation, turnOffSecondFactor.operation,
        sessions.operation,
        endSession.operation, me.operation,
        updateMe.operation, deleteMe.operation, requestExport.operation, export.operation, deletionProgress.operation,
        following.operation, followers.operation, matchFriends.operation, profile.operation,
        follow.operation, unfollow.operation, keys.operation,
    ]
}

/// `GET /.well-known/jwks.json`: RFC 7517 public keys (Ed25519 as OKP).
public struct JSONWebKeySet: Codable, Equatable, Sendable {
    public struct Key: Codable, Equatable, Sendable {
        public var kty: String
        public var crv: String?
        public var x: String?
        public var kid: String?
        public var alg: String?
        public var use: String?

        public init(kty: String, crv: String? = nil, x: String? = nil, kid: String? = nil, alg: String? = nil, use: String? = nil) {
            self.kty = kty
            self.crv = crv
            self.x = x
            self.kid = kid
            self.alg = alg
            self.use = use
        }
    }

    public var keys: [Key]
    public init(keys: [Key]) { self.keys = keys }
}
