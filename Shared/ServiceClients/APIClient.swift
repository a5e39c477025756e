import AsyncHTTPClient
public import Contracts
public import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
public import NIOHTTP1
import ServerContracts
public import ServiceHTTP

/// JSON over real HTTP through the endpoint descriptions, as an app would call the API: the demo
/// seeds with it, the benchmarks load with it and the tests drive with it (`TestClient`). The path is
/// the description's, filled with the ids given, so nobody reaches a route no description names by
/// accident; `raw` is for what no description names (unknown routes, a provider's stand-in).
public struct APIClient: Sendable {
    /// Where requests go: one base URL, or several (a replicated deployment's gateways) taken in turn.
    public let baseURLs: [String]
    /// Who signs calls to internal operations, as a module would; nil sends no credential.
    public let internalCallers: InternalCallers?
    private let turn = NIOLockedValueBox(0)

    /// `baseURL`: one base URL, or a comma-separated list of them that requests take in turn.
    public init(baseURL: String, internalCallers: InternalCallers? = nil) {
        baseURLs = baseURL.split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces)) }.filter { !$0.isEmpty }
        self.internalCallers = internalCallers
    }

    /// The first base URL (where a live socket connects).
    public var baseURL: String { baseURLs.first ?? "" }

    /// The same client without the internal credential, to see internal operations refused.
    public var withoutCredential: APIClient { APIClient(baseURL: baseURLs.joined(separator: ",")) }

    /// The same client calling internal operations as `module`, whatever the wiring lets it call.
    public func acting(as module: ServiceModule) -> APIClient {
        APIClient(baseURL: baseURLs.joined(separator: ","), internalCallers: internalCallers?.acting(as: module))
    }

    private var nextBaseURL: String {
        turn.withLockedValue { turn in
            defer { turn += 1 }
            return baseURLs[turn % baseURLs.count]
        }
    }

    public struct Response: Sendable {
        public let status: Int
        public let headers: HTTPHeaders
        public let body: Data

        public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
            try HuddleJSON.decoder.decode(T.self, from: body)
        }

        public var problem: Problem? { try? decode(Problem.self) }
        public var text: String { String(decoding: body, as: UTF8.self) }
        public func header(_ name: String) -> String? { headers.first(name: name) }
    }

    /// Sends a request to the operation `endpoint` describes: its `{parameters}` filled with `ids` in
    /// order, `query` written through the description's fields as every client writes it (or
    /// `rawQuery` appended as written, so a test can send what a well-behaved client would not), and
    /// the internal credential when the operation is internal. `body` is the description's body type;
    /// `rawBody` sends bytes as they are.
    public func call<Access, Body, Output>(
        _ endpoint: Endpoint<Access, Body, Output>, _ ids: any CustomStringConvertible..., query: QueryItems = QueryItems(),
        rawQuery: String? = nil, body: Body? = nil, rawBody: Data? = nil, chunked: Bool = false, token: String? = nil,
        headers: [String: String] = [:], timeout: Duration = .seconds(30)
    ) async throws -> Response {
        try await send(
            endpoint, ids, try Self.query(query, rawQuery, for: endpoint.operation), body, rawBody: rawBody, chunked: chunked, token: token,
            headers: headers, timeout: timeout)
    }

    /// Like `call`, but anything other than 2xx throws `UnexpectedResponse`; answers the decoded output.
    public func value<Access, Body, Output>(
        _ endpoint: Endpoint<Access, Body, Output>, _ ids: any CustomStringConvertible..., query: QueryItems = QueryItems(),
        rawQuery: String? = nil, body: Body? = nil, token: String? = nil, headers: [String: String] = [:]
    ) async throws -> Output {
        let response = try await send(
            endpoint, ids, try Self.query(query, rawQuery, for: endpoint.operation), body, token: token, headers: headers)
        guard (200..<300).contains(response.status) else { throw UnexpectedResponse(response: response) }
        if let none = NoContent() as? Output { return none }
        return try response.decode(Output.self)
    }

    /// The query to send: the typed one, checked against the operation, then any raw text after it.
    private static func query(_ typed: QueryItems, _ raw: String?, for operation: APIOperation) throws -> String? {
        let parts = [try typed.items(for: operation).isEmpty ? nil : typed.encoded, raw].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: "&")
    }

    private func send<Access, Body, Output>(
        _ endpoint: Endpoint<Access, Body, Output>, _ ids: [any CustomStringConvertible], _ query: String?, _ body: Body?,
        rawBody: Data? = nil, chunked: Bool = false, token: String?, headers: [String: String], timeout: Duration = .seconds(30)
    ) async throws -> Response {
        let operation = endpoint.operation
        var headers = headers
        if operation.access == .internalCaller,
            let token = try await internalCallers?.token(calling: operation.owner, at: operation.path.text)
        {
            headers[Routes.Header.internalToken] = token
        }
        let path = operation.path.filled(ids.map(\.description)) + (query.map { "?" + $0 } ?? "")
        return try await raw(
            operation.method.clientMethod, path, json: body.map { $0 as any Encodable }, rawBody: rawBody, chunked: chunked,
            token: token, headers: headers, timeout: timeout)
    }

    /// A request to a path no description names: an unknown route, a mangled path, a provider's
    /// stand-in. Everything the API describes goes through `call`.
    /// `chunked`: send `rawBody` in pieces without a Content-Length, as a client streaming an upload does.
    public func raw(
        _ method: HTTPMethod, _ path: String, json: (any Encodable)? = nil, rawBody: Data? = nil, chunked: Bool = false,
        token: String? = nil, headers: [String: String] = [:], timeout: Duration = .seconds(30)
    ) async throws -> Response {
        var request = HTTPClientRequest(url: nextBaseURL + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try HuddleJSON.encoder.encode(json)))
        } else if let rawBody {
            let bytes = ByteBuffer(bytes: rawBody)
            request.body = chunked ? .stream(Self.pieces(of: bytes), length: .unknown) : .bytes(bytes)
        }
        let response = try await Self.httpClient.execute(request, timeout: .init(timeout))
        let body = try await response.body.collect(upTo: 64 * 1024 * 1024)
        return Response(status: Int(response.status.code), headers: response.headers, body: Data(buffer: body))
    }

    /// An app's connection: it starts no trace of its own (AsyncHTTPClient's tracing is off), so the
    /// only `traceparent` a request carries is one its caller sets, as an app that traces would.
    private static let httpClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.tracing.tracer = nil
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    private static func pieces(of bytes: ByteBuffer) -> AsyncStream<ByteBuffer> {
        AsyncStream { continuation in
            var rest = bytes
            while rest.readableBytes > 0 { continuation.yield(rest.readSlice(length: min(1024, rest.readableBytes))!) }
            continuation.finish()
        }
    }

    /// Registers a new member and returns their session.
    public func register(name: String = "Test Player", email: String? = nil, password: String = "correct horse battery")
        async throws -> Session
    {
        let email = email ?? "player-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        return try await value(AuthAPI.register, body: RegisterRequest(email: email, password: password, name: name))
    }
}

/// An answer other than the one expected, with its status and body.
public struct UnexpectedResponse: Error, CustomStringConvertible {
    public let response: APIClient.Response
    public let expected: Int?

    public init(response: APIClient.Response, expected: Int? = nil) {
        self.response = response
        self.expected = expected
    }

    public var description: String {
        "expected \(expected.map(String.init) ?? "success"), got \(response.status): \(response.text)"
    }
}
