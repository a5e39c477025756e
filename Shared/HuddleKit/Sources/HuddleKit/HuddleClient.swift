public import Contracts
public import Foundation

/// Huddle for an app. Every public operation is a typed call made from its description in Contracts,
/// so a path or a field cannot differ from what the server serves:
///
/// ```swift
/// let huddle = HuddleClient(baseURL: URL(string: "https://api.huddle.dev")!, tokens: KeychainTokens())
/// try await huddle.signIn(email: email, password: password)
/// let team = try await huddle.send(CatalogAPI.team, teamID)
/// for try await game in huddle.pages(GamesAPI.myGames, query: Query.mineScope(.mine) + GamesAPI.gamesWhen(.past)) { … }
/// ```
///
/// Calls carry the session's access token, refreshed before it expires and once after a 401. Calls
/// that are safe to repeat (GET, PUT, DELETE, and writes that take an `Idempotency-Key`, whose key is
/// made once per call and sent again with each retry) are retried after no answer, 502/503/504 and
/// 429. Failures are `HuddleError`s; a query that writes a field its operation does not list is a
/// mistake in the calling code, thrown as `UnlistedQueryField` before anything is sent.
public final class HuddleClient: Sendable {
    public let baseURL: URL
    let transport: any HTTPTransport
    let liveTransport: any LiveTransport
    let retry: RetryPolicy
    let sessions: SessionKeeper
    /// The language Huddle answers in (`Accept-Language`: problems' title and detail); pushes, the
    /// inbox and mails follow the profile's `locale` instead, as they reach the player without a request.
    public let locale: String?
    /// What the player read, for `read` (README, "Offline"); nil keeps nothing.
    public let keptReads: KeptReads?
    /// Writes made offline, for `queue`; nil queues nothing.
    public let queuedWrites: QueuedWrites?
    let now: @Sendable () -> Date

    /// `now` is the only clock HuddleKit reads (when an access token expires); a test sets its own.
    /// `locale`: a BCP 47 tag, such as `Locale.preferredLanguages.first` (Huddle writes `en`, `et` and
    /// `it`; others read English). `keptReads` and `queuedWrites`: where what was read and what was
    /// written offline are kept (README, "Offline").
    public init(
        baseURL: URL, transport: any HTTPTransport = URLSessionTransport(), liveTransport: any LiveTransport = URLSessionLiveTransport(),
        tokens: any TokenStore = InMemoryTokenStore(), retry: RetryPolicy = .standard, locale: String? = nil,
        keptReads: KeptReads? = nil, queuedWrites: QueuedWrites? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.locale = locale
        self.keptReads = keptReads
        self.queuedWrites = queuedWrites
        self.now = now
        self.baseURL = baseURL
        self.transport = transport
        self.liveTransport = liveTransport
        self.retry = retry
        self.sessions = SessionKeeper(store: tokens, now: now)
    }

    /// A W3C `traceparent` to send with every call made inside `HuddleClient.$traceparent.withValue(…)`,
    /// when the app traces (from its OpenTelemetry SDK, say): the server's spans then continue the
    /// app's trace, so a trace can start on the phone. Without one, the gateway starts the trace.
    @TaskLocal public static var traceparent: String?

    // MARK: Calls

    /// Calls an operation with a JSON body; `path` fills its `{parameters}` in order, and `query` is
    /// written through the operation's own fields.
    public func send<Access, Body, Output>(
        _ endpoint: Endpoint<Access, Body, Output>, _ path: any CustomStringConvertible..., query: QueryItems = QueryItems(), body: Body
    ) async throws -> Output {
        try decode(Output.self, from: try await perform(endpoint.operation, path.map(\.description), query, body: try encoded(body)))
    }

    /// Calls an operation without a body.
    public func send<Access, Output>(
        _ endpoint: Endpoint<Access, NoBody, Output>, _ path: any CustomStringConvertible..., query: QueryItems = QueryItems()
    ) async throws -> Output {
        try decode(Output.self, from: try await perform(endpoint.operation, path.map(\.description), query, body: nil))
    }

    /// Every item of a list, page after page as the sequence is read (`nextCursor` followed).
    public func pages<Access, Item: Sendable>(
        _ endpoint: Endpoint<Access, NoBody, Page<Item>>, _ path: any CustomStringConvertible..., query: QueryItems = QueryItems()
    ) -> AsyncThrowingStream<Item, any Error> {
        let operation = endpoint.operation, values = path.map(\.description)
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var cursor: String? = nil
                    repeat {
                        let page = try decode(
                            Page<Item>.self, from: try await perform(operation, values, query + Query.cursor(cursor), body: nil))
                        for item in page.items { continuation.yield(item) }
                        cursor = page.nextCursor
                    } while cursor != nil && !Task.isCancelled
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    // MARK: The exchange

    /// `ifNoneMatch`: the tag of a kept copy (a 304 is then an answer); `idempotencyKey`: one made
    /// before (a queued write's); `retrying`: false makes one attempt only.
    func perform(
        _ operation: APIOperation, _ path: [String], _ query: QueryItems, body: Data?, ifNoneMatch: String? = nil,
        idempotencyKey: String? = nil, retrying: Bool = true
    ) async throws -> HTTPResponse {
        let url = try url(operation, path, query)
        let wantsToken = operation.access == .signedIn || operation.optionalSignIn
        var token = wantsToken ? try await sessions.accessToken(refresh: refresher) : nil
        if operation.access == .signedIn, token == nil { throw HuddleError(kind: .notSignedIn) }
        let idempotencyKey = operation.acceptsIdempotencyKey ? idempotencyKey ?? UUID().uuidString : nil
        let retries = retrying ? retry.retries : 0
        let repeatable = [.get, .put, .delete].contains(operation.method) || idempotencyKey != nil
        var attempts = 0, refreshedAfterRefusal = false
        while true {
            var request = HTTPRequest(method: operation.method.rawValue, url: url, headers: ["Accept": "application/json"], body: body)
            if body != nil { request.headers["Content-Type"] = "application/json" }
            if let token { request.headers["Authorization"] = "Bearer \(token)" }
            if let idempotencyKey { request.headers[Routes.Header.idempotencyKey] = idempotencyKey }
            if let traceparent = Self.traceparent { request.headers["traceparent"] = traceparent }
            if let locale { request.headers["Accept-Language"] = locale }
            if let ifNoneMatch { request.headers["If-None-Match"] = ifNoneMatch }
            let response: HTTPResponse
            do {
                response = try await transport.send(request)
            } catch is TransportFailure {
                guard repeatable, attempts < retries else { throw HuddleError(kind: .unreachable) }
                attempts += 1
                try await Task.sleep(for: retry.delay(beforeRetry: attempts, retryAfter: nil))
                continue
            }
            if response.status == 401, let sent = token, !refreshedAfterRefusal {
                refreshedAfterRefusal = true
                token = try await sessions.accessToken(after: sent, refresh: refresher)
                continue
            }
            if RetryPolicy.retriedStatuses.contains(response.status), repeatable, attempts < retries {
                attempts += 1
                try await Task.sleep(for: retry.delay(beforeRetry: attempts, retryAfter: response.headers["retry-after"]))
                continue
            }
            guard (200..<300).contains(response.status) || (response.status == 304 && ifNoneMatch != nil) else {
                throw Self.failure(response)
            }
            return response
        }
    }

    /// Refreshes through auth's public operation; never retried on a refusal, which ends the session.
    var refresher: SessionKeeper.Refresh {
        { [self] refreshToken in
            let response = try await perform(
                AuthAPI.refresh.operation, [], QueryItems(), body: try HuddleJSON.encoder.encode(RefreshRequest(refreshToken: refreshToken))
            )
            return try decode(Session.self, from: response)
        }
    }

    func url(_ operation: APIOperation, _ path: [String], _ query: QueryItems) throws -> URL {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw HuddleError(kind: .unexpectedAnswer)
        }
        let base =
            components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = base + operation.path.filled(path)
        let items = try query.items(for: operation)
        components.percentEncodedQuery = items.isEmpty ? nil : query.encoded
        guard let url = components.url else { throw HuddleError(kind: .unexpectedAnswer) }
        return url
    }

    /// A body as JSON; one that cannot be written is a mistake in the calling code's types.
    func encoded(_ body: some Encodable) throws -> Data {
        do {
            return try HuddleJSON.encoder.encode(body)
        } catch {
            throw HuddleError(kind: .unexpectedAnswer)
        }
    }

    func decode<Output: Decodable>(_ type: Output.Type, from response: HTTPResponse) throws -> Output {
        if let none = NoContent() as? Output { return none }
        // An image is its bytes, not JSON.
        if Output.self == ImageBytes.self, let image = ImageBytes(response.body) as? Output { return image }
        do {
            return try HuddleJSON.decoder.decode(Output.self, from: response.body)
        } catch {
            throw HuddleError(kind: .unexpectedAnswer, status: response.status, requestID: response.headers["x-request-id"])
        }
    }

    static func failure(_ response: HTTPResponse) -> HuddleError {
        let requestID = response.headers["x-request-id"]
        guard let problem = try? HuddleJSON.decoder.decode(Problem.self, from: response.body) else {
            return HuddleError(kind: .unexpectedAnswer, status: response.status, requestID: requestID)
        }
        return HuddleError(kind: .problem, status: response.status, problem: problem, requestID: requestID)
    }
}
