import AsyncHTTPClient
public import Contracts
import Foundation
import Logging
import NIOCore
import NIOFoundationCompat
public import NIOHTTP1
import ServerContracts
import Tracing

/// Calls another module's internal HTTP API. Every typed client (`AuthClient`, …) is a thin layer
/// over this: it resolves the module's address on each call, sends the calling module's signed token and the
/// caller's request id, applies a timeout, and turns failures into problems the caller can pass
/// on — a module that is down or slow becomes a 503, never a 500 or a hang.
public struct InternalClient: Sendable {
    public let module: ServiceModule
    let dependencies: ServiceDependencies
    let timeout: Duration

    /// `timeout` bounds each call; without it, `dependencies.internalTimeout`.
    public init(_ module: ServiceModule, dependencies: ServiceDependencies, timeout: Duration? = nil) {
        self.module = module
        self.dependencies = dependencies
        self.timeout = timeout ?? dependencies.internalTimeout
    }

    /// Calls a described operation without a body; a 404 from the module becomes `nil`.
    /// `path` fills the description's `{parameters}` in order; `query` is written through its fields.
    public func call<Access, Output>(
        _ endpoint: Endpoint<Access, NoBody, Output>, path: [any CustomStringConvertible] = [], query: QueryItems = QueryItems(),
        requestID: String? = nil, bearer: String? = nil
    ) async throws -> Output? {
        let (status, body) = try await send(
            endpoint.operation.method.clientMethod, try Self.target(endpoint, path, query), body: nil, requestID: requestID, bearer: bearer,
            operation: endpoint.operation.name)
        if status == 404 { return nil }
        if let none = NoContent() as? Output, (200..<300).contains(status) { return none }
        return try decode(Output.self, status: status, body: body)
    }

    /// Calls a described operation with a body. A problem among `relaying` (by code) is passed on to
    /// the caller as the module stated it, rather than as a 503: a public operation the caller fronts
    /// (the console signing a moderator in) answers what the module answered.
    public func call<Access, Body, Output>(
        _ endpoint: Endpoint<Access, Body, Output>, path: [any CustomStringConvertible] = [], body: Body, requestID: String? = nil,
        bearer: String? = nil, relaying: [ProblemCode] = []
    ) async throws -> Output {
        let data = try HuddleJSON.encoder.encode(body)
        let (status, responseBody) = try await send(
            endpoint.operation.method.clientMethod, try Self.target(endpoint, path, QueryItems()), body: data, requestID: requestID,
            bearer: bearer,
            operation: endpoint.operation.name)
        if let none = NoContent() as? Output, (200..<300).contains(status) { return none }
        if !(200..<300).contains(status), let problem = try? HuddleJSON.decoder.decode(Problem.self, from: Data(buffer: responseBody)),
            relaying.contains(ProblemCode(problem.status, problem.code))
        {
            throw RelayedProblem(problem: problem)
        }
        return try decode(Output.self, status: status, body: responseBody)
    }

    /// Calls a described operation with a body and answers the status and the problem the module
    /// answered with, whatever the status: for a caller that tells a refusal from an absence (the
    /// outbox parks an event its subscriber refuses, and retries one it could not reach). Throws
    /// only when the module did not answer.
    public func answer<Access, Body, Output>(to endpoint: Endpoint<Access, Body, Output>, body: Body) async throws -> (
        status: Int, problem: Problem?
    ) {
        let data = try HuddleJSON.encoder.encode(body)
        let (status, responseBody) = try await send(
            endpoint.operation.method.clientMethod, try Self.target(endpoint, [], QueryItems()), body: data, requestID: nil,
            operation: endpoint.operation.name)
        return (status, try? HuddleJSON.decoder.decode(Problem.self, from: Data(buffer: responseBody)))
    }

    private static func target<Access, Body, Output>(
        _ endpoint: Endpoint<Access, Body, Output>, _ path: [any CustomStringConvertible], _ query: QueryItems
    ) throws -> String {
        let items = try query.items(for: endpoint.operation)
        return endpoint.operation.path.filled(path.map(\.description)) + (items.isEmpty ? "" : "?" + query.encoded)
    }

    /// Sends the request in a span named by the operation (`GET /internal/...`); AsyncHTTPClient's own
    /// span inside it puts the trace context in the headers, so the module's work is a child of the caller's.
    private func send(
        _ method: HTTPMethod, _ path: String, body: Data?, requestID: String?, bearer: String? = nil, operation: String
    ) async throws -> (Int, ByteBuffer) {
        try await withSpanWhenTraced(operation, ofKind: .client) { span in
            span?.attributes["huddle.callee"] = module.rawValue
            return try await send(method, path, body: body, requestID: requestID, bearer: bearer, span: span)
        }
    }

    private func send(
        _ method: HTTPMethod, _ path: String, body: Data?, requestID: String?, bearer: String?, span: (any Span)?
    ) async throws -> (Int, ByteBuffer) {
        guard let base = dependencies.directory.url(of: module) else {
            throw CommonError.dependencyUnavailable(module.rawValue)
        }
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        guard let credential = dependencies.credential else {
            dependencies.logger.error("no internal key to call \(module.rawValue) with")
            throw CommonError.dependencyUnavailable(module.rawValue)
        }
        request.headers.add(name: Routes.Header.internalToken, value: try await credential.token(for: module))
        if let requestID { request.headers.add(name: Routes.Header.requestID, value: requestID) }
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        do {
            let response = try await dependencies.httpClient.execute(request, timeout: .init(timeout))
            let buffer = try await response.body.collect(upTo: 16 * 1024 * 1024)
            span?.attributes["http.response.status_code"] = Int(response.status.code)
            return (Int(response.status.code), buffer)
        } catch is CancellationError {
            // The caller was cancelled (a shutdown, a client that went away): not the module's fault.
            throw CancellationError()
        } catch {
            dependencies.logger.warning("call to \(module.rawValue) \(path) failed: \(error)")
            throw CommonError.dependencyUnavailable(module.rawValue)
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, status: Int, body: ByteBuffer) throws -> T {
        guard (200..<300).contains(status) else { throw unexpected(status) }
        do {
            return try HuddleJSON.decoder.decode(T.self, from: Data(buffer: body))
        } catch {
            dependencies.logger.error("\(module.rawValue) answered a body we cannot read: \(error)")
            throw CommonError.dependencyUnavailable(module.rawValue)
        }
    }

    private func unexpected(_ status: Int) -> CommonError {
        dependencies.logger.warning("\(module.rawValue) answered \(status)")
        return .dependencyUnavailable(module.rawValue)
    }
}

extension HTTPVerb {
    /// The method as AsyncHTTPClient and NIO name it.
    public var clientMethod: HTTPMethod {
        switch self {
        case .get: .GET
        case .post: .POST
        case .put: .PUT
        case .patch: .PATCH
        case .delete: .DELETE
        }
    }
}

/// A problem another module answered, passed on as it was.
public struct RelayedProblem: ProblemError {
    public let problem: Problem
    public init(problem: Problem) { self.problem = problem }
}
