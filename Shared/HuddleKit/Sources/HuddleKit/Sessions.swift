public import Contracts
import Foundation

/// Signing in and out. The session is kept in the client's `TokenStore`; `sessionEvents()` tells
/// the app when it starts, is refreshed and ends.
extension HuddleClient {
    /// Creates an account and signs in with it.
    @discardableResult
    public func register(email: String, password: String, name: String) async throws -> SessionUser {
        await begin(try await send(AuthAPI.register, body: RegisterRequest(email: email, password: password, name: name)))
    }

    @discardableResult
    public func signIn(email: String, password: String) async throws -> SessionUser {
        await begin(try await send(AuthAPI.login, body: LoginRequest(email: email, password: password)))
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

    /// Ends the session on the server (when it answers) and here.
    public func signOut() async {
        _ = try? await send(AuthAPI.logout)
        await sessions.end(.signedOut)
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
