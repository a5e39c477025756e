import Contracts
import Foundation
import SQLKit
import ServerContracts

/// Sessions and their refresh tokens (stored only as SHA-256 hashes).
protocol SessionStore: Sendable {
    /// `secondFactor`: signed in with the second factor's code, which its refreshed tokens say too.
    func insert(
        session: SessionID, user: UserID, expiresAt: Date, refreshHash: String, userAgent: String?, secondFactor: Bool,
        on sql: any SQLDatabase
    ) async throws
    /// Marks a refresh token used and issues its successor in the same session.
    /// Swaps the refresh token and, the session being used now, moves its end by `lifetime`.
    func rotate(
        refreshHash: String, newHash: String, now: Date, lifetime: SessionLifetime, userAgent: String?, on sql: any SQLDatabase
    ) async throws -> RotationOutcome
    /// `user`'s sessions that have neither ended nor been revoked, most recently used first.
    func open(of user: UserID, at now: Date, on sql: any SQLDatabase) async throws -> [OpenSession]
    /// Ends a session; returns false if it had already ended.
    @discardableResult
    func revoke(_ session: SessionID, at: Date, on sql: any SQLDatabase) async throws -> Bool
    func revocations(after cursor: Int64, since: Date, on sql: any SQLDatabase) async throws -> RevokedSessions
    /// Ends every open session of `user`; answers them.
    /// Ends every open session of `user` but `kept`; answers those it ended.
    func revokeAll(of user: UserID, except kept: SessionID?, at: Date, on sql: any SQLDatabase) async throws -> [SessionID]
}

extension SessionStore {
    func revokeAll(of user: UserID, at: Date, on sql: any SQLDatabase) async throws -> [SessionID] {
        try await revokeAll(of: user, except: nil, at: at, on: sql)
    }
}

enum RotationOutcome: Sendable, Equatable {
    case rotated(session: SessionID, user: UserID, secondFactor: Bool)
    /// The token was already used once: someone replayed it. The caller revokes the session.
    case reused(session: SessionID)
    /// Unknown token, or its session ended or expired.
    case invalid
}

struct SQLSessionStore: SessionStore {
    /// The module's clock, which stamps the rows this store writes.
    let now: @Sendable () -> Date

    func insert(
        session: SessionID, user: UserID, expiresAt: Date, refreshHash: String, userAgent: String?, secondFactor: Bool,
        on sql: any SQLDatabase
    ) async throws {
        let createdAt = now()
        try await sql.insert(into: "sessions")
            .columns("id", "user_id", "created_at", "expires_at", "last_used_at", "user_agent", "second_factor")
            .values(
                SQLBind(session.description), SQLBind(user.description), SQLBind(createdAt), SQLBind(expiresAt), SQLBind(createdAt),
                SQLBind(userAgent), SQLBind(secondFactor)
            )
            .run()
        try await insertToken(refreshHash, session: session, at: createdAt, on: sql)
    }

    func rotate(
        refreshHash: String, newHash: String, now: Date, lifetime: SessionLifetime, userAgent: String?, on sql: any SQLDatabase
    ) async throws -> RotationOutcome {
        // The conditional UPDATE is the single point of truth: of two concurrent refreshes with
        // one token, exactly one sees its row come back.
        let claimed = try await sql.update("refresh_tokens")
            .set("rotated_at", to: SQLBind(now))
            .where("token_hash", .equal, SQLBind(refreshHash))
            .where("rotated_at", .is, SQLLiteral.null)
            .returning("session_id")
            .first(decodingColumn: "session_id", as: String.self)
        guard let claimed, let session = SessionID(claimed) else {
            let used = try await sql.select().column("session_id").from("refresh_tokens")
                .where("token_hash", .equal, SQLBind(refreshHash))
                .first(decodingColumn: "session_id", as: String.self)
            return used.flatMap(SessionID.init).map { .reused(session: $0) } ?? .invalid
        }
        guard
            let row = try await sql.select().columns("user_id", "created_at", "expires_at", "revoked_at", "second_factor").from("sessions")
                .where("id", .equal, SQLBind(session.description)).first(),
            try row.decode(column: "revoked_at", as: Date?.self) == nil,
            try row.decode(column: "expires_at", as: Date.self) > now,
            let user = UserID(try row.decode(column: "user_id", as: String.self))
        else { return .invalid }
        let createdAt = try row.decode(column: "created_at", as: Date.self)
        var used = sql.update("sessions").set("last_used_at", to: SQLBind(now))
            .set("expires_at", to: SQLBind(lifetime.expiry(createdAt: createdAt, usedAt: now)))
        if let userAgent { used = used.set("user_agent", to: SQLBind(userAgent)) }
        try await used.where("id", .equal, SQLBind(session.description)).run()
        try await insertToken(newHash, session: session, at: now, on: sql)
        return .rotated(session: session, user: user, secondFactor: try row.decode(column: "second_factor", as: Bool.self))
    }

    func revoke(_ session: SessionID, at: Date, on sql: any SQLDatabase) async throws -> Bool {
        let ended = try await sql.update("sessions")
            .set("revoked_at", to: SQLBind(at))
            .where("id", .equal, SQLBind(session.description))
            .where("revoked_at", .is, SQLLiteral.null)
            .returning("id").first()
        guard ended != nil else { return false }
        try await sql.insert(into: "session_revocations").columns("session_id", "revoked_at")
            .values(SQLBind(session.description), SQLBind(at)).run()
        return true
    }

    func revokeAll(of user: UserID, except kept: SessionID?, at: Date, on sql: any SQLDatabase) async throws -> [SessionID] {
        let open = try await sql.select().column("id").from("sessions").where("user_id", .equal, SQLBind(user.description))
            .where("revoked_at", .is, SQLLiteral.null).all().compactMap { SessionID(try $0.decode(column: "id", as: String.self)) }
            .filter { $0 != kept }
        for session in open { _ = try await revoke(session, at: at, on: sql) }
        return open
    }

    func revocations(after cursor: Int64, since: Date, on sql: any SQLDatabase) async throws -> RevokedSessions {
        let rows = try await sql.select().columns("seq", "session_id", "revoked_at").from("session_revocations")
            .where("seq", .greaterThan, SQLBind(cursor))
            .orderBy("seq").limit(1000).all()
        var entries: [RevokedSessions.Entry] = []
        var last = cursor
        for row in rows {
            last = try row.decode(column: "seq", as: Int64.self)
            let revokedAt = try row.decode(column: "revoked_at", as: Date.self)
            // Older revocations no longer matter: every access token of those sessions has expired.
            guard revokedAt >= since, let id = SessionID(try row.decode(column: "session_id", as: String.self)) else {
                continue
            }
            entries.append(.init(sessionID: id, revokedAt: revokedAt))
        }
        return RevokedSessions(items: entries, cursor: last)
    }

    func open(of user: UserID, at now: Date, on sql: any SQLDatabase) async throws -> [OpenSession] {
        try await sql.select().columns("id", "created_at", "last_used_at", "user_agent").from("sessions")
            .where("user_id", .equal, SQLBind(user.description)).where("revoked_at", .is, SQLLiteral.null)
            .where("expires_at", .greaterThan, SQLBind(now)).orderBy("last_used_at", .descending).all()
            .compactMap { row in
                guard let id = SessionID(try row.decode(column: "id", as: String.self)) else { return nil }
                let createdAt = try row.decode(column: "created_at", as: Date.self)
                return OpenSession(
                    id: id, createdAt: createdAt, lastUsedAt: try row.decode(column: "last_used_at", as: Date?.self) ?? createdAt,
                    userAgent: try row.decode(column: "user_agent", as: String?.self))
            }
    }

    private func insertToken(_ hash: String, session: SessionID, at: Date, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "refresh_tokens").columns("token_hash", "session_id", "created_at")
            .values(SQLBind(hash), SQLBind(session.description), SQLBind(at)).run()
    }
}
