import Contracts
import Foundation
import Logging
import SQLKit
import ServiceFeatures
import ServiceHTTP
import ServiceStore

/// Signing up, signing in and sessions: the use cases behind `/v1/auth/...`.
struct Accounts: Sendable {
    /// The name of an account made from a provider's sign-in that gave no name, or none left once held
    /// to the rule for names people type (a provider's name is its app's or its API's word, not typed here).
    static let unnamed = "Player"

    let database: Database
    let users: any UserStore
    let sessions: any SessionStore
    let attempts: any LoginAttemptStore
    /// How long sessions last: sliding with each refresh, up to an absolute end.
    let lifetime: SessionLifetime
    /// Mails the token that proves a new account's address.
    let addresses: EmailAddresses
    /// Asked for the code of an account with a second factor on, at every sign-in.
    let secondFactors: SecondFactors
    /// `auth.staff.second-factor: required`: tokens say so, and staff work needs a session signed in with a code.
    let staffNeedSecondFactor: Bool
    let hasher: PasswordHasher
    let issuer: TokenIssuer
    let verifier: TokenVerifier
    let facebook: FacebookVerifier
    let apple: AppleIdentityVerifier
    let google: GoogleIdentityVerifier
    /// Exchanges a Sign in with Apple code for the refresh token deletion revokes; nil without a key.
    let appleTokens: AppleTokenExchange?
    let sealer: TokenSealer?
    let throttle: LoginThrottle
    /// Moderators' suspensions and bans, which refuse sign-in and refresh.
    let suspensions: Suspensions
    /// Names with a filtered word are refused.
    let filter: ContentFilter
    /// Emails that hold the administrator role (`auth.admin.emails`).
    let administratorEmails: Set<String>
    /// The clock: tests set it.
    let now: @Sendable () -> Date
    var profileEvents: ProfileEvents { ProfileEvents(outbox: Outbox(now: database.now)) }

    func register(_ request: RegisterRequest) async throws -> Contracts.Session {
        let email = AuthValidation.normalizedEmail(request.email)
        try AuthValidation.require(
            AuthValidation.emailProblem(email), AuthValidation.passwordProblem(request.password),
            AuthValidation.nameProblem(request.name))
        try filter.refuse(request.name, field: "name")
        let passwordHash = try await hasher.hash(request.password)
        let user = User(
            id: UserID(), email: email, name: request.name.trimmingBlanks,
            pictureUrl: nil, sports: [], passwordHash: passwordHash, facebookID: nil, roles: [], createdAt: now())
        return try await startSession(for: user) { sql in
            try await users.insert(user, on: sql)
            try await profileEvents.published(user, on: sql)
            try await addresses.mailVerification(to: user, on: sql)
        }
    }

    /// `client` is the address the attempt came from, which throttling counts failures by.
    func login(_ request: LoginRequest, client: String) async throws -> Contracts.Session {
        let email = AuthValidation.normalizedEmail(request.email)
        // No account has an address that could not be registered; such text never reaches the store.
        guard AuthValidation.emailProblem(email) == nil else { throw AuthError.invalidCredentials }
        let now = self.now()
        // An attempt counts as a failure until its password proves right, and is counted under the
        // email's lock: guesses sent together each see those before them, where all of them used to
        // pass a check made before any was recorded.
        try await database.transaction { sql in
            try await Database.lock("auth.login.\(email)", on: sql)
            let recentFailures = try await attempts.failures(
                email: email, client: client, since: now.addingTimeInterval(-throttle.window), on: sql)
            if let wait = throttle.retryAfter(failures: recentFailures, now: now) {
                throw AuthError.tooManyAttempts(retryAfterSeconds: wait)
            }
            try await attempts.recordFailure(email: email, client: client, at: now, on: sql)
        }
        let user = try await database.read { sql in try await users.user(email: email, on: sql) }
        // Unknown emails are checked against a dummy hash: same answer, same time.
        guard try await hasher.verify(request.password, against: user?.passwordHash), let user else {
            throw AuthError.invalidCredentials
        }
        return try await startSession(for: user, code: request.code) { sql in
            try await attempts.clear(email: email, on: sql)
        }
    }

    func login(facebookToken: String) async throws -> Contracts.Session {
        try await signIn(as: try await facebook.verify(facebookToken), through: .facebook)
    }

    /// The identity token is checked first; then its code is exchanged at Apple for the refresh
    /// token kept (sealed) with the member, so deleting the account can revoke it.
    func login(apple request: AppleSignInRequest) async throws -> Contracts.Session {
        var identity = try await apple.verify(request.identityToken, rawNonce: request.rawNonce, name: request.name)
        if let code = request.authorizationCode, let appleTokens, let sealer {
            identity.sealedRefreshToken = try sealer.seal(try await appleTokens.refreshToken(for: code))
        }
        return try await signIn(as: identity, through: .apple)
    }

    func login(google request: GoogleSignInRequest) async throws -> Contracts.Session {
        try await signIn(as: try await google.verify(request.idToken, nonce: request.nonce), through: .google)
    }

    /// Signs in with an identity a provider vouched for: the same provider account always maps to
    /// the same member; a first sign-in links to the account with the provider's verified email, or
    /// creates one.
    private func signIn(as identity: ProviderIdentity, through provider: SignInProvider) async throws -> Contracts.Session {
        do {
            return try await signInOnce(as: identity, through: provider)
        } catch AuthError.emailTaken {
            // A sign-in of the same provider account (another device, a second tap) made the member
            // after this one looked: it is found now.
            return try await signInOnce(as: identity, through: provider)
        }
    }

    private func signInOnce(as identity: ProviderIdentity, through provider: SignInProvider) async throws -> Contracts.Session {
        let existing = try await database.read { sql in try await users.user(provider, id: identity.providerUserID, on: sql) }
        if var existing {
            let pictured = existing.pictureUrl == nil && identity.pictureUrl != nil
            guard identity.sealedRefreshToken != nil || pictured else { return try await startSession(for: existing) { _ in } }
            existing.appleRefreshToken = identity.sealedRefreshToken ?? existing.appleRefreshToken
            // A profile without a picture takes the provider's.
            existing.pictureUrl = existing.pictureUrl ?? identity.pictureUrl
            let user = existing
            return try await startSession(for: user) { sql in
                try await users.update(user, on: sql)
                if pictured { try await profileEvents.published(user, on: sql) }
            }
        }
        let email = identity.verifiedEmail.map(AuthValidation.normalizedEmail)
        // Without a verified email, the account this provider account made before it was unlinked
        // (Apple's consent revoked) is found by the address made for it.
        let placeholder = "\(provider.rawValue)-\(identity.providerUserID)@users.huddle.invalid"
        let linked = try await database.read { sql -> User? in
            try await users.user(email: email ?? placeholder, on: sql)
        }
        if var linked {
            linked[keyPath: provider.userID] = identity.providerUserID
            linked.appleRefreshToken = identity.sealedRefreshToken ?? linked.appleRefreshToken
            linked.pictureUrl = linked.pictureUrl ?? identity.pictureUrl
            let user = linked, at = now()
            return try await startSession(for: user) { sql in
                try await users.update(user, on: sql)
                // Linked by the address the provider vouched for: it is proven.
                if email != nil { try await users.verifyEmail(of: user.id, changingTo: nil, at: at, on: sql) }
                try await profileEvents.published(user, on: sql)
            }
        }
        var user = User(
            id: UserID(), email: email ?? placeholder,
            name: TextRule.personName.conforming(identity.name) ?? Self.unnamed, pictureUrl: identity.pictureUrl, sports: [],
            passwordHash: nil,
            facebookID: nil, roles: [],
            createdAt: now(), emailVerifiedAt: email == nil ? nil : now())
        user[keyPath: provider.userID] = identity.providerUserID
        user.appleRefreshToken = identity.sealedRefreshToken
        let created = user
        return try await startSession(for: created) { sql in
            try await users.insert(created, on: sql)
            try await profileEvents.published(created, on: sql)
        }
    }

    func refresh(_ token: String) async throws -> Contracts.Session {
        let newToken = RefreshToken.generate()
        let now = self.now()
        let outcome = try await database.transaction { sql in
            try await sessions.rotate(
                refreshHash: RefreshToken.hash(token), newHash: RefreshToken.hash(newToken), now: now, lifetime: lifetime,
                userAgent: SignInDevice.userAgent, on: sql)
        }
        switch outcome {
        case .invalid:
            throw AuthError.invalidRefreshToken
        case .reused(let session):
            // A rotated token came back: it was stolen or replayed, so the whole session ends.
            try await revoke(session)
            throw AuthError.invalidRefreshToken
        case .rotated(let session, let userID, let secondFactor):
            guard let user = try await database.read({ sql in try await users.user(id: userID, on: sql) }) else {
                throw AuthError.invalidRefreshToken
            }
            try await database.read { sql in try await suspensions.refuseIfSuspended(user.id, on: sql) }
            return try await makeSession(user: user, session: session, refreshToken: newToken, secondFactor: secondFactor)
        }
    }

    func revoke(_ session: SessionID) async throws {
        let now = self.now()
        try await database.transaction { sql in _ = try await sessions.revoke(session, at: now, on: sql) }
        await verifier.revoke(session, revokedAt: now)
    }

    /// `user`'s signed-in devices; `current` is the one asking.
    func devices(of user: UserID, current: SessionID) async throws -> [DeviceSession] {
        let now = self.now()
        return try await database.read { sql in try await sessions.open(of: user, at: now, on: sql) }.map {
            DeviceSession(id: $0.id, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt, userAgent: $0.userAgent, current: $0.id == current)
        }
    }

    /// Signs out one of `user`'s devices; 404 for a session that is not theirs or has ended.
    func end(_ session: SessionID, of user: UserID) async throws {
        let now = self.now()
        let theirs = try await database.read { sql in try await sessions.open(of: user, at: now, on: sql) }.contains { $0.id == session }
        guard theirs else { throw CommonError.missing(session) }
        try await revoke(session)
    }

    func roles(of user: User) -> Set<Role> {
        administratorEmails.contains(user.email) ? user.roles.union([.administrator]) : user.roles
    }

    /// A new session for `user`, who has just proven who they are another way (a reset token).
    func signedIn(_ user: User) async throws -> Contracts.Session { try await startSession(for: user) { _ in } }

    /// Runs `prepare` and creates the session in one transaction, then signs the access token. An
    /// account with a second factor on needs `code` (only a password sign-in has one): without a
    /// right one nothing is written, so a wrong code counts as a failed sign-in.
    private func startSession(
        for user: User, code: String? = nil, prepare: @escaping @Sendable (any SQLDatabase) async throws -> Void
    ) async throws -> Contracts.Session {
        let session = SessionID()
        let refreshToken = RefreshToken.generate()
        let secondFactor = try await database.transaction { sql -> Bool in
            try await suspensions.refuseIfSuspended(user.id, on: sql)
            let proven = try await secondFactors.check(code, of: user.id, on: sql)
            if proven == false {
                throw AuthError.secondFactorRequired(
                    code == nil
                        ? "This account has a second factor on: sign in with the email, the password and the authenticator's code."
                        : "The code is not the authenticator's current one, or was used already.")
            }
            try await prepare(sql)
            let now = self.now()
            try await sessions.insert(
                session: session, user: user.id, expiresAt: lifetime.expiry(createdAt: now, usedAt: now),
                refreshHash: RefreshToken.hash(refreshToken), userAgent: SignInDevice.userAgent, secondFactor: proven == true, on: sql)
            return proven == true
        }
        return try await makeSession(user: user, session: session, refreshToken: refreshToken, secondFactor: secondFactor)
    }

    private func makeSession(user: User, session: SessionID, refreshToken: String, secondFactor: Bool) async throws -> Contracts.Session {
        let accessToken = try await issuer.accessToken(
            for: user, session: session, roles: roles(of: user), secondFactor: secondFactor, staffNeedSecondFactor: staffNeedSecondFactor)
        return Contracts.Session(
            user: user.sessionUser, accessToken: accessToken, refreshToken: refreshToken, expiresIn: Int(issuer.accessLifetime))
    }
}
