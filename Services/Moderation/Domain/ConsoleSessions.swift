import Contracts
import Crypto
import Foundation
import Logging
import ServerContracts
import ServiceHTTP
import ServiceStore

/// A signed-in moderator at the console: who they are (from their verified access token) and the
/// anti-forgery token every form of theirs carries.
struct ConsoleSession: Sendable {
    let id: String
    let identity: Identity
    let name: String
    let csrf: String
}

/// Signing moderators in to the console and knowing them again by their cookie. The console signs
/// in at auth like any app (`POST /v1/auth/login`), and keeps the session auth gives it on the
/// server, sealed: the browser holds only a random cookie. Each request verifies the access token
/// as every module does (so a revoked session, a suspension or a deletion ends the console session
/// too) and refreshes it once it expires, under a row lock so that two requests refresh it once (a
/// refresh token used twice ends the auth session).
struct ConsoleSessions: Sendable {
    let database: Database
    let store: any ConsoleSessionStore
    let auth: InternalClient
    let verifier: TokenVerifier
    let moderators: Moderators
    let sealer: TokenSealer
    /// How long a console session lasts, however busy (`moderation.console.session.ms`, 12 hours).
    let lifetime: TimeInterval
    let logger: Logger
    let now: @Sendable () -> Date

    /// A new session for a moderator's email and password; answers the cookie to set. Auth's own
    /// refusals (wrong password, too many attempts, a suspension) are passed on as auth stated them.
    func signIn(email: String, password: String, code: String?, requestID: String) async throws -> (cookie: String, session: ConsoleSession)
    {
        var session = try await auth.call(
            AuthAPI.login, body: LoginRequest(email: email, password: password, code: code.flatMap { $0.isEmpty ? nil : $0 }),
            requestID: requestID,
            relaying: [.invalidCredentials, .tooManyAttempts, .accountSuspended, .validationFailed, .secondFactorRequired])
        var identity: Identity
        switch try await check(session.accessToken) {
        case .valid(let verified): identity = verified
        case .ended: throw CommonError.unauthorized("Auth's session could not be verified.")
        case .expired:
            // Tokens are dated in whole seconds: a short-lived one can expire on its way here.
            session = try await auth.call(
                AuthAPI.refresh, body: RefreshRequest(refreshToken: session.refreshToken), requestID: requestID,
                relaying: [.invalidRefreshToken, .accountSuspended])
            guard case .valid(let verified) = try await check(session.accessToken) else {
                throw CommonError.unauthorized("Auth's session could not be verified.")
            }
            identity = verified
        }
        do {
            try await moderators.require(identity)
        } catch {
            try? await endAuthSession(session.accessToken, requestID: requestID)
            throw error
        }
        let cookie = Self.randomToken()
        let stored = StoredConsoleSession(
            id: Self.key(of: cookie), userID: identity.userID, name: session.user.name, csrf: Self.randomToken(),
            sealedAccessToken: try sealer.seal(session.accessToken), sealedRefreshToken: try sealer.seal(session.refreshToken),
            expiresAt: now().addingTimeInterval(lifetime))
        try await database.transaction { sql in
            try await store.deleteExpired(before: now(), on: sql)
            try await store.insert(stored, at: now(), on: sql)
        }
        logger.notice("moderator \(identity.userID) signed in to the console")
        return (cookie, ConsoleSession(id: stored.id, identity: identity, name: stored.name, csrf: stored.csrf))
    }

    /// The session a request's cookie names, or nil when there is none any more (never made, ended,
    /// expired, or its auth session revoked).
    func current(cookie: String?) async throws -> ConsoleSession? {
        guard let cookie, !cookie.isEmpty, cookie.count <= ConsoleLimits.token else { return nil }
        let id = Self.key(of: cookie)
        guard let stored = try await database.read({ sql in try await store.session(id, locking: false, on: sql) }) else { return nil }
        guard stored.expiresAt > now() else {
            try await end(id)
            return nil
        }
        switch try await check(try sealer.open(stored.sealedAccessToken)) {
        case .valid(let identity): return ConsoleSession(id: id, identity: identity, name: stored.name, csrf: stored.csrf)
        case .ended:
            try await end(id)
            return nil
        case .expired: return try await refreshed(id)
        }
    }

    /// Ends the console session and the auth session behind it.
    func signOut(_ session: ConsoleSession, requestID: String) async throws {
        let stored = try await database.read { sql in try await store.session(session.id, locking: false, on: sql) }
        try await end(session.id)
        if let stored { try? await endAuthSession(try sealer.open(stored.sealedAccessToken), requestID: requestID) }
    }

    private enum TokenCheck { case valid(Identity), expired, ended }

    /// A 503 when auth's keys cannot be had: that ends no session.
    private func check(_ accessToken: String) async throws -> TokenCheck {
        do {
            return .valid(try await verifier.verify(accessToken))
        } catch .invalid {
            return .expired
        } catch .keysUnavailable {
            throw CommonError.dependencyUnavailable("Token verification")
        } catch {
            return .ended
        }
    }

    /// Refreshes the session's access token unless another request did while this one waited for the lock.
    private func refreshed(_ id: String) async throws -> ConsoleSession? {
        let refreshed: (StoredConsoleSession, String)? = try await database.transaction { sql in
            guard let stored = try await store.session(id, locking: true, on: sql) else { return nil }
            let access = try sealer.open(stored.sealedAccessToken)
            if case .valid = try await check(access) { return (stored, access) }
            let session: Session
            do {
                session = try await auth.call(
                    AuthAPI.refresh, body: RefreshRequest(refreshToken: try sealer.open(stored.sealedRefreshToken)),
                    relaying: [.invalidRefreshToken, .accountSuspended])
            } catch is RelayedProblem {
                try await store.delete(id, on: sql)
                return nil
            }
            try await store.replaceTokens(
                of: id, access: try sealer.seal(session.accessToken), refresh: try sealer.seal(session.refreshToken), on: sql)
            return (stored, session.accessToken)
        }
        guard let (stored, access) = refreshed, case .valid(let identity) = try await check(access) else { return nil }
        return ConsoleSession(id: id, identity: identity, name: stored.name, csrf: stored.csrf)
    }

    private func end(_ id: String) async throws {
        try await database.transaction { sql in try await store.delete(id, on: sql) }
    }

    private func endAuthSession(_ accessToken: String, requestID: String) async throws {
        _ = try await auth.call(AuthAPI.logout, requestID: requestID, bearer: accessToken)
    }

    /// 32 random bytes, base64url: a cookie or an anti-forgery token.
    static func randomToken() -> String {
        Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }).base64URLEncodedString()
    }

    /// What a cookie is stored as: its SHA-256, so the store alone signs nobody in.
    static func key(of cookie: String) -> String { SHA256.hash(data: Data(cookie.utf8)).hexString }

    /// Compares two tokens in time that does not depend on where they differ.
    static func same(_ a: String, _ b: String) -> Bool {
        let (x, y) = (Array(a.utf8), Array(b.utf8))
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
