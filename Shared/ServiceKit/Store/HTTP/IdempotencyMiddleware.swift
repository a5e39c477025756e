import Contracts
import Crypto
import Foundation
import HTTPTypes
public import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import SQLKit
public import ServiceHTTP

/// Makes a signed-in client's POSTs safe to retry: a request carrying `Idempotency-Key` runs once
/// per user and key; a repeat with the same body gets the first answer again (with
/// `Idempotent-Replayed: true`), a repeat with a different body is a 422, and a repeat that arrives
/// while the first is still running is a 409. Failed attempts (5xx) are forgotten so a retry runs
/// again. Keys are kept for 24 hours in the service's `idempotency_keys` table; one whose first
/// request never finished — its instance died under it — is released after `pendingLifetime`, longer
/// than any request may run, where it used to answer 409 for the whole day.
public struct IdempotencyMiddleware: RouterMiddleware {
    public typealias Context = HuddleRequestContext

    static let lifetime: TimeInterval = 24 * 3600
    let database: Database
    let pendingLifetime: TimeInterval

    public init(database: Database, pendingLifetime: Duration = .seconds(30)) {
        self.database = database
        self.pendingLifetime = Double(pendingLifetime.components.seconds) + Double(pendingLifetime.components.attoseconds) / 1e18
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .post, let key = request.headers[values: HTTPField.Name.idempotencyKey].first,
            let user = context.identity?.userID
        else { return try await next(request, context) }
        guard IdempotencyKey(key) != nil else { throw CommonError.validation([IdempotencyKey.problem]) }
        let body = try await request.collectBody(context: context)
        var digest = SHA256()
        digest.update(data: Data("\(request.method.rawValue) \(request.uri.path)\n".utf8))
        digest.update(data: Data(buffer: body))
        let fingerprint = digest.finalize().hexString

        let claimed = try await database.transaction { sql in
            try await claim(user: user, key: key, fingerprint: fingerprint, on: sql)
        }
        if case .earlier(let stored) = claimed { return try replay(stored, fingerprint: fingerprint) }

        var retried = request
        retried.body = .init(buffer: body)
        let response: Response
        do {
            response = try await next(retried, context)
        } catch {
            // Errors become problems further out; a 4xx is as final as a success, a 5xx is retried.
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            if status >= 500 {
                try await forget(user: user, key: key)
            } else {
                let problem = try (error as? any HTTPResponseError)?.response(from: request, context: context)
                try await remember(problem ?? Response(status: .init(code: status)), user: user, key: key)
            }
            throw error
        }
        if response.status.code >= 500 {
            try await forget(user: user, key: key)
            return response
        }
        return try await remember(response, user: user, key: key)
    }

    private enum Claim {
        case new
        case earlier(Stored)
    }

    private struct Stored {
        let fingerprint: String
        let status: Int?
        let contentType: String?
        let body: String?
    }

    private func claim(user: UserID, key: String, fingerprint: String, on sql: any SQLDatabase) async throws -> Claim {
        let now = database.now()
        try await sql.delete(from: "idempotency_keys")
            .where("user_id", .equal, SQLBind(user.description)).where("key", .equal, SQLBind(key))
            .where { expired in
                expired.where("created_at", .lessThan, SQLBind(now.addingTimeInterval(-Self.lifetime)))
                    .orWhere {
                        $0.where("status", .is, SQLLiteral.null).where(
                            "created_at", .lessThan, SQLBind(now.addingTimeInterval(-pendingLifetime)))
                    }
            }
            .run()
        let inserted = try await sql.insert(into: "idempotency_keys").columns("user_id", "key", "fingerprint", "created_at")
            .values(SQLBind(user.description), SQLBind(key), SQLBind(fingerprint), SQLBind(database.now()))
            .ignoringConflicts(with: ["user_id", "key"]).returning("key").all()
        if !inserted.isEmpty { return .new }
        guard
            let row = try await sql.select().columns("fingerprint", "status", "content_type", "body").from("idempotency_keys")
                .where("user_id", .equal, SQLBind(user.description)).where("key", .equal, SQLBind(key)).first()
        else { return .new }
        return .earlier(
            Stored(
                fingerprint: try row.decode(column: "fingerprint", as: String.self),
                status: try row.decode(column: "status", as: Int?.self),
                contentType: try row.decode(column: "content_type", as: String?.self),
                body: try row.decode(column: "body", as: String?.self)))
    }

    private func replay(_ stored: Stored, fingerprint: String) throws -> Response {
        guard stored.fingerprint == fingerprint else {
            throw CommonError.invalid(Routes.Header.idempotencyKey, "was already used for a different request")
        }
        guard let status = stored.status else {
            throw CommonError.idempotencyKeyInUse
        }
        var headers: HTTPFields = [HTTPField.Name.idempotentReplayed: "true"]
        if let type = stored.contentType { headers[.contentType] = type }
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: stored.body ?? "")))
    }

    /// Stores the answer and returns an equivalent response (the original body can be read once).
    @discardableResult
    private func remember(_ response: Response, user: UserID, key: String) async throws -> Response {
        let collected = NIOLockedValueBox(ByteBuffer())
        try await response.body.write(CollectingWriter(collected: collected))
        let body = collected.withLockedValue { $0 }
        try await database.transaction { sql in
            try await sql.update("idempotency_keys")
                .set("status", to: SQLBind(Int(response.status.code)))
                .set("content_type", to: SQLBind(response.headers.value(of: .contentType)))
                .set("body", to: SQLBind(String(buffer: body)))
                .where("user_id", .equal, SQLBind(user.description)).where("key", .equal, SQLBind(key)).run()
        }
        var copy = response
        copy.body = .init(byteBuffer: body)
        return copy
    }

    private func forget(user: UserID, key: String) async throws {
        try await database.transaction { sql in
            try await sql.delete(from: "idempotency_keys")
                .where("user_id", .equal, SQLBind(user.description)).where("key", .equal, SQLBind(key)).run()
        }
    }

    private struct CollectingWriter: ResponseBodyWriter {
        let collected: NIOLockedValueBox<ByteBuffer>
        mutating func write(_ buffer: ByteBuffer) async throws {
            collected.withLockedValue { $0.writeImmutableBuffer(buffer) }
        }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}

extension HTTPField.Name {
    static let idempotentReplayed = Self("Idempotent-Replayed")!
}

extension Migration {
    /// `idempotency_keys`: the answers `IdempotencyMiddleware` replays.
    public static func idempotency(version: Int) -> Migration {
        Migration(version: version, name: "idempotency keys") { kind in
            [
                """
                CREATE TABLE idempotency_keys (
                    user_id TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, status INTEGER, content_type TEXT,
                    body TEXT, created_at \(kind.timestamp) NOT NULL, PRIMARY KEY (user_id, key))
                """
            ]
        }
    }
}
