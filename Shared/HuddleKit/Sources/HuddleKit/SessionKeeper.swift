public import Contracts
import Foundation

/// What happens to the session, for the app to follow: on `.ended`, show the sign-in screen.
public enum SessionEvent: Sendable, Equatable {
    case signedIn(SessionUser)
    case refreshed
    case signedOut
    /// The server refused the refresh token (reused after a rotation, revoked, expired).
    case ended
}

/// Keeps the session: hands out an access token good for the next call, refreshes it shortly before
/// it expires or once after a 401, and makes every call that needs a refresh at the same moment
/// share one (ten calls on an expired token make one refresh request). Rotation is followed: each
/// refresh stores the new refresh token. A refused refresh ends the session.
actor SessionKeeper {
    typealias Refresh = @Sendable (_ refreshToken: String) async throws -> Session

    private let store: any TokenStore
    /// Refresh this long before the access token expires, so a call never carries one that dies in flight.
    private let margin: TimeInterval
    private var current: StoredSession?
    private var loaded = false
    private var refreshing: Task<StoredSession, any Error>?
    private var observers: [UUID: AsyncStream<SessionEvent>.Continuation] = [:]

    /// The app's clock, against which the access token's expiry is judged.
    private let now: @Sendable () -> Date

    init(store: any TokenStore, margin: TimeInterval = 30, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.margin = margin
        self.now = now
    }

    var user: SessionUser? {
        get async { await session()?.session.user }
    }

    func start(_ session: Session) async {
        let stored = StoredSession(session: session, accessTokenExpiresAt: now().addingTimeInterval(TimeInterval(session.expiresIn)))
        current = stored
        loaded = true
        await store.save(stored)
        publish(.signedIn(session.user))
    }

    func end(_ event: SessionEvent) async {
        current = nil
        loaded = true
        await store.save(nil)
        publish(event)
    }

    /// The access token for the next call; nil when nobody is signed in.
    func accessToken(refresh: @escaping Refresh) async throws -> String? {
        guard let stored = await session() else { return nil }
        if stored.accessTokenExpiresAt.timeIntervalSince(now()) > margin { return stored.session.accessToken }
        return try await refreshed(replacing: stored.session.accessToken, refresh: refresh).session.accessToken
    }

    /// After the server refused `token` (401): a refreshed token, unless another call replaced it already.
    func accessToken(after token: String, refresh: @escaping Refresh) async throws -> String {
        try await refreshed(replacing: token, refresh: refresh).session.accessToken
    }

    func events() -> AsyncStream<SessionEvent> {
        let (stream, continuation) = AsyncStream<SessionEvent>.makeStream()
        let id = UUID()
        observers[id] = continuation
        continuation.onTermination = { _ in Task { await self.stopObserving(id) } }
        return stream
    }

    private func stopObserving(_ id: UUID) { observers[id] = nil }

    private func publish(_ event: SessionEvent) {
        for observer in observers.values { observer.yield(event) }
    }

    private func session() async -> StoredSession? {
        if !loaded {
            current = await store.load()
            loaded = true
        }
        return current
    }

    private func refreshed(replacing token: String, refresh: @escaping Refresh) async throws -> StoredSession {
        if let refreshing { return try await refreshing.value }
        guard let current else { throw HuddleError(kind: .notSignedIn) }
        // Someone refreshed since this token was handed out: use theirs, never spend the rotated refresh token.
        guard current.session.accessToken == token else { return current }
        let refreshToken = current.session.refreshToken
        let task = Task<StoredSession, any Error> {
            do {
                let session = try await refresh(refreshToken)
                return StoredSession(session: session, accessTokenExpiresAt: now().addingTimeInterval(TimeInterval(session.expiresIn)))
            } catch let error as HuddleError where error.kind == .problem && error.status == 401 {
                throw HuddleError(kind: .sessionEnded, status: 401, problem: error.problem, requestID: error.requestID)
            }
        }
        refreshing = task
        do {
            let next = try await task.value
            self.current = next
            refreshing = nil
            await store.save(next)
            publish(.refreshed)
            return next
        } catch let error as HuddleError where error.kind == .sessionEnded {
            refreshing = nil
            await end(.ended)
            throw error
        } catch {
            refreshing = nil
            throw error
        }
    }
}
