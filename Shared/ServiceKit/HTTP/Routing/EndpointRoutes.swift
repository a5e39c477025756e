public import Contracts
import Crypto
import Foundation
public import Hummingbird
public import ServerContracts

/// Registering a handler against an operation's description: the method and path come from the
/// description, the body arrives decoded as the described type, the handler must return the
/// described answer, and the success status is the described one. A signed-in operation's handler
/// is handed an `AuthenticatedContext` (401 before the handler runs otherwise). Routes under
/// `/internal` are guarded by `InternalCallerMiddleware` on every service's router.
extension RouterMethods where Context == HuddleRequestContext {
    @discardableResult
    public func on<Output>(
        _ endpoint: Endpoint<Anyone, NoBody, Output>, headers: HTTPFields = [:],
        use handler: @escaping @Sendable (Request, HuddleRequestContext) async throws -> Output
    ) -> Self {
        register(endpoint.operation, headers: headers) { request, context in try await handler(request, context) }
    }

    @discardableResult
    public func on<Body, Output>(
        _ endpoint: Endpoint<Anyone, Body, Output>, headers: HTTPFields = [:],
        use handler: @escaping @Sendable (Body, Request, HuddleRequestContext) async throws -> Output
    ) -> Self {
        register(endpoint.operation, headers: headers) { request, context in
            try await handler(try await request.decodeJSON(Body.self, context: context), request, context)
        }
    }

    @discardableResult
    public func on<Output>(
        _ endpoint: Endpoint<SignedIn, NoBody, Output>,
        use handler: @escaping @Sendable (Request, AuthenticatedContext) async throws -> Output
    ) -> Self {
        register(endpoint.operation) { request, context in try await handler(request, try AuthenticatedContext(context: context)) }
    }

    @discardableResult
    public func on<Body, Output>(
        _ endpoint: Endpoint<SignedIn, Body, Output>,
        use handler: @escaping @Sendable (Body, Request, AuthenticatedContext) async throws -> Output
    ) -> Self {
        precondition(!endpoint.operation.requiresIdempotencyKey, "\(endpoint.operation.name) requires a key: register it with on(keyed:)")
        return register(endpoint.operation) { request, context in
            let signedIn = try AuthenticatedContext(context: context)
            return try await handler(try await request.decodeJSON(Body.self, context: context), request, signedIn)
        }
    }

    /// A signed-in write whose caller's right is checked before its body is read: `authorize` runs
    /// first, so a caller without the right is answered its 403 (or 404, for what it may not see) and
    /// never the body's 422 — the answer a stranger gets says nothing about the body's rules. The
    /// use case checks again in its transaction; this is the early word.
    @discardableResult
    public func on<Body, Output>(
        _ endpoint: Endpoint<SignedIn, Body, Output>,
        authorizing authorize: @escaping @Sendable (AuthenticatedContext) async throws -> Void,
        use handler: @escaping @Sendable (Body, Request, AuthenticatedContext) async throws -> Output
    ) -> Self {
        precondition(!endpoint.operation.requiresIdempotencyKey, "\(endpoint.operation.name) requires a key: register it with on(keyed:)")
        return register(endpoint.operation) { request, context in
            let signedIn = try AuthenticatedContext(context: context)
            try await authorize(signedIn)
            return try await handler(try await request.decodeJSON(Body.self, context: context), request, signedIn)
        }
    }

    @discardableResult
    public func on<Output>(
        _ endpoint: Endpoint<InternalCaller, NoBody, Output>,
        use handler: @escaping @Sendable (Request, HuddleRequestContext) async throws -> Output
    ) -> Self {
        register(endpoint.operation) { request, context in try await handler(request, context) }
    }

    @discardableResult
    public func on<Body, Output>(
        _ endpoint: Endpoint<InternalCaller, Body, Output>,
        use handler: @escaping @Sendable (Body, Request, HuddleRequestContext) async throws -> Output
    ) -> Self {
        register(endpoint.operation) { request, context in
            try await handler(try await request.decodeJSON(Body.self, context: context, checkingSchema: false), request, context)
        }
    }

    /// A signed-in read whose handler writes its answer's JSON itself (`EncodedJSON`).
    @discardableResult
    public func on<Output>(
        _ endpoint: Endpoint<SignedIn, NoBody, Output>,
        encoded handler: @escaping @Sendable (Request, AuthenticatedContext) async throws -> EncodedJSON<Output>
    ) -> Self {
        let operation = endpoint.operation
        let described = DescribedHandling(operation)
        return on(RouterPath(operation.path.text), method: operation.method.httpMethod) { request, context -> Response in
            let signedIn = try AuthenticatedContext(context: context)
            let answer = try await described.run(request) { try await handler(request, signedIn) }
            return answer.response(status: .init(code: operation.successStatus))
        }
    }

    /// A write described with `idempotencyKeyRequired`: no request reaches the handler without a
    /// key (428) or with one of the wrong length (422), and the handler gets the key to keep with its
    /// effect in one transaction.
    @discardableResult
    public func on<Body, Output>(
        keyed endpoint: Endpoint<SignedIn, Body, Output>,
        use handler: @escaping @Sendable (Body, IdempotencyKey, AuthenticatedContext) async throws -> Output
    ) -> Self {
        precondition(endpoint.operation.requiresIdempotencyKey, "\(endpoint.operation.name) does not require an Idempotency-Key")
        return register(endpoint.operation) { request, context in
            let signedIn = try AuthenticatedContext(context: context)
            guard let text = request.headers[values: .idempotencyKey].first else { throw CommonError.idempotencyKeyRequired }
            guard let key = IdempotencyKey(text) else { throw CommonError.validation([IdempotencyKey.problem]) }
            return try await handler(try await request.decodeJSON(Body.self, context: context), key, signedIn)
        }
    }

    /// An operation that answers its described status or another one it describes (e.g. a create
    /// whose repeat answers 200 with what the first created): the handler says which.
    @discardableResult
    public func on<Body, Output>(
        _ endpoint: Endpoint<SignedIn, Body, Output>,
        answering handler: @escaping @Sendable (Body, Request, AuthenticatedContext) async throws -> (Output, status: Int)
    ) -> Self {
        let successStatus = endpoint.operation.successStatus
        return on(endpoint) { body, request, context in
            let (output, status) = try await handler(body, request, context)
            return status == successStatus ? .described(output) : .other(output, status: status)
        }
    }

    /// An operation that answers its described output, or another answer it describes with a body
    /// of its own (a request left pending, 202): the handler says which. `authorize`, as for `use:`,
    /// runs before the body is read.
    @discardableResult
    public func on<Body, Output>(
        _ endpoint: Endpoint<SignedIn, Body, Output>,
        authorizing authorize: @escaping @Sendable (AuthenticatedContext) async throws -> Void = { _ in },
        either handler: @escaping @Sendable (Body, Request, AuthenticatedContext) async throws -> Answer<Output>
    ) -> Self {
        let operation = endpoint.operation
        precondition(!operation.requiresIdempotencyKey, "\(operation.name) requires an Idempotency-Key: register it with a keyed handler")
        let described = DescribedHandling(operation)
        on(RouterPath(operation.path.text), method: operation.method.httpMethod) { request, context -> Response in
            let signedIn = try AuthenticatedContext(context: context)
            let answer = try await described.run(request) {
                try await authorize(signedIn)
                return try await handler(try await request.decodeJSON(Body.self, context: context), request, signedIn)
            }
            switch answer {
            case .described(let output):
                return try JSONResponse(output, status: .init(code: operation.successStatus)).response(from: request, context: context)
            case .other(let body, let status):
                precondition(operation.otherAnswers[status] != nil, "\(operation.name) does not describe a \(status) answer")
                return try Self.respond(body, status: status, to: request, context: context)
            }
        }
        return self
    }

    /// `body` as JSON: a function of its own, so the existential opens to its type.
    private static func respond(_ body: some Encodable & Sendable, status: Int, to request: Request, context: Context) throws -> Response {
        try JSONResponse(body, status: .init(code: status)).response(from: request, context: context)
    }

    /// A conditional read (`traits: .conditional`): the handler names the current version
    /// cheaply, and the body is read only when the caller's `If-None-Match` does not name it.
    @discardableResult
    public func on<Output>(
        _ endpoint: Endpoint<Anyone, NoBody, Output>,
        conditional handler: @escaping @Sendable (Request, HuddleRequestContext) async throws -> Conditional<Output>
    ) -> Self {
        registerConditional(endpoint.operation, cacheability: "public") { request, context in
            try await handler(request, context)
        }
    }

    /// A signed-in conditional read (`traits: .conditional`): the handler answers the body with the
    /// versions it was read at (`Versioned`); the entity tag names those versions for this caller in
    /// this language, so a phone holding the current copy is answered 304 without a body.
    @discardableResult
    public func on<Output>(
        _ endpoint: Endpoint<SignedIn, NoBody, Output>,
        conditional handler: @escaping @Sendable (Request, AuthenticatedContext) async throws -> Versioned<Output>
    ) -> Self {
        registerConditional(endpoint.operation, cacheability: "private") { request, context in
            let signedIn = try AuthenticatedContext(context: context)
            return try await handler(request, signedIn).conditional(for: signedIn.userID, asking: request.uri.description)
        }
    }

    /// Answers 304 with the tag when the caller's `If-None-Match` names it, else the body with it.
    private func registerConditional<Output>(
        _ operation: APIOperation, cacheability: String,
        _ handler: @escaping @Sendable (Request, HuddleRequestContext) async throws -> Conditional<Output>
    ) -> Self {
        precondition(operation.isConditional, "\(operation.name) is not described as conditional")
        let described = DescribedHandling(operation)
        on(RouterPath(operation.path.text), method: operation.method.httpMethod) { request, context -> Response in
            if operation.access == .signedIn { _ = try AuthenticatedContext(context: context) }
            let answer = try await described.run(request) { try await handler(request, context) }
            let headers: HTTPFields = [.eTag: answer.etag, .cacheControl: "\(cacheability), max-age=\(answer.maxAgeSeconds)"]
            if answer.isCurrent(for: request.headers[values: .ifNoneMatch]) { return Response(status: .notModified, headers: headers) }
            return try JSONResponse(try await answer.body(), headers: headers).response(from: request, context: context)
        }
        return self
    }

    private func register<Output: Encodable & Sendable>(
        _ operation: APIOperation, headers: HTTPFields = [:],
        _ handler: @escaping @Sendable (Request, HuddleRequestContext) async throws -> Output
    ) -> Self {
        let status = HTTPResponse.Status(code: operation.successStatus)
        let described = DescribedHandling(operation)
        on(RouterPath(operation.path.text), method: operation.method.httpMethod) { request, context -> Response in
            // Who is asking comes before what is asked: 401 before any 422.
            if operation.access == .signedIn { _ = try AuthenticatedContext(context: context) }
            let output = try await described.run(request) { try await handler(request, context) }
            if output is NoContent { return Response(status: .noContent, headers: headers) }
            return try JSONResponse(output, status: status, headers: headers).response(from: request, context: context)
        }
        return self
    }
}

extension HTTPVerb {
    public var httpMethod: HTTPRequest.Method {
        switch self {
        case .get: .get
        case .post: .post
        case .put: .put
        case .patch: .patch
        case .delete: .delete
        }
    }
}

extension Router where Context == HuddleRequestContext {
    /// A wrong method on a path that has routes gets 405 with `Allow`, as problem+json, instead of
    /// the 404 of an unknown path. Call once every route is registered.
    public func answerWrongMethods() {
        // QUERY (the safe method with a body, draft-ietf-httpbis-safe-method-w-body) is one clients and
        // fuzzers send; it is not among HTTPTypes' constants.
        let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options, .trace, HTTPRequest.Method("QUERY")!]
        var allowed: [String: (RouterPath, Set<HTTPRequest.Method>)] = [:]
        for route in routes { allowed[route.path.description, default: (route.path, [])].1.insert(route.method) }
        for (_, (path, registered)) in allowed {
            // HEAD is answered wherever GET is (`HeadAnsweredAsGet`).
            let pathMethods = registered.contains(.get) ? registered.union([.head]) : registered
            let allow = methods.filter(pathMethods.contains).map(\.rawValue)
            for method in methods where !pathMethods.contains(method) {
                on(path, method: method) { _, _ -> Response in throw CommonError.methodNotAllowed(allow: allow) }
            }
        }
    }

    /// Routes of this router that no description of `module` names, and described operations of
    /// `module` without a route: both must be empty.
    public func undescribedRoutes(of module: ServiceModule, exempt: Set<String> = StandardRoutes<HuddleRequestContext>.paths) -> (
        undescribed: [String], unhandled: [String]
    ) {
        let described = Set(API.operations(of: module).map(\.name))
        let registered = Set(routes.filter { !exempt.contains($0.path.description) }.map { "\($0.method.rawValue) \($0.path)" })
        return (registered.subtracting(described).sorted(), described.subtracting(registered).sorted())
    }
}

/// A conditional read's answer: the entity tag of the current version, how long it stays current,
/// and how to read the body when the caller's copy is not that version.
public struct Conditional<Output: Encodable & Sendable>: Sendable {
    /// A strong entity tag, quotes included (`"3f2a…-17"`).
    public let etag: String
    public let maxAgeSeconds: Int
    public let body: @Sendable () async throws -> Output

    public init(etag: String, maxAgeSeconds: Int, body: @escaping @Sendable () async throws -> Output) {
        self.etag = etag
        self.maxAgeSeconds = maxAgeSeconds
        self.body = body
    }

    /// RFC 9110 §13.1.2: `*`, or any listed tag equal to ours under weak comparison.
    func isCurrent(for ifNoneMatch: [String]) -> Bool {
        let listed = ifNoneMatch.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        func opaque(_ tag: some StringProtocol) -> Substring { tag.hasPrefix("W/") ? Substring(tag.dropFirst(2)) : Substring(tag) }
        return listed.contains { $0 == "*" || opaque($0) == opaque(etag) }
    }
}

/// A signed-in read's answer with what it was read at: the stored versions of what it shows
/// (`RowVersions`), and whatever else shapes it for this caller (their standing, a gate), as short
/// texts. The entity tag is made from these, the caller and the language, never from the body.
public struct Versioned<Output: Encodable & Sendable>: Sendable {
    public let value: Output
    public let parts: [String]
    public let maxAgeSeconds: Int

    public init(_ value: Output, parts: [String], maxAgeSeconds: Int = 0) {
        self.value = value
        self.parts = parts
        self.maxAgeSeconds = maxAgeSeconds
    }

    /// The tag for `user` asking `uri` (the query shapes the answer too) in the request's language.
    func conditional(for user: UserID, asking uri: String) -> Conditional<Output> {
        let named = ([user.description, RequestLanguage.current.rawValue, uri] + parts).joined(separator: "\n")
        let tag = "\"" + SHA256.hash(data: Data(named.utf8)).prefix(16).hexString + "\""
        return Conditional(etag: tag, maxAgeSeconds: maxAgeSeconds) { value }
    }
}
