public import Contracts
public import Foundation

/// The signed-in session as a token store keeps it.
public struct StoredSession: Codable, Sendable, Equatable {
    public var session: Session
    /// When the access token stops working (from `expiresIn` when it was issued).
    public var accessTokenExpiresAt: Date

    public init(session: Session, accessTokenExpiresAt: Date) {
        self.session = session
        self.accessTokenExpiresAt = accessTokenExpiresAt
    }
}

/// Where the session lives between launches. An app brings its Keychain store; the default keeps
/// it in memory only.
public protocol TokenStore: Sendable {
    func load() async -> StoredSession?
    /// `nil` forgets the session.
    func save(_ session: StoredSession?) async
}

public actor InMemoryTokenStore: TokenStore {
    private var stored: StoredSession?

    public init(_ session: StoredSession? = nil) { stored = session }

    public func load() -> StoredSession? { stored }
    public func save(_ session: StoredSession?) { stored = session }
}
