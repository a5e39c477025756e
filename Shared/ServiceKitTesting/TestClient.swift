import AsyncHTTPClient
public import Contracts
public import Foundation
import NIOCore
import NIOFoundationCompat
public import NIOHTTP1
import ServiceKit

/// JSON over real HTTP, for tests that drive the public API.
public struct TestClient: Sendable {
    public let baseURL: String

    public init(baseURL: String) { self.baseURL = baseURL }

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

    /// `chunked`: send `rawBody` in pieces without a Content-Length, as a client streaming an upload does.
    public func send(
        _ method: HTTPMethod, _ path: String, json: (any Encodable)? = nil, rawBody: Data? = nil, chunked: Bool = false,
        token: String? = nil, headers: [String: String] = [:], timeout: Duration = .seconds(30)
    ) async throws -> Response {
        var request = HTTPClientRequest(url: baseURL + path)
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
        let response = try await HTTPClient.shared.execute(request, timeout: .init(timeout))
        let body = try await response.body.collect(upTo: 64 * 1024 * 1024)
        return Response(status: Int(response.status.code), headers: response.headers, body: Data(buffer: body))
    }

    private static func pieces(of bytes: ByteBuffer) -> AsyncStream<ByteBuffer> {
        AsyncStream { continuation in
            var rest = bytes
            while rest.readableBytes > 0 { continuation.yield(rest.readSlice(length: min(1024, rest.readableBytes))!) }
            continuation.finish()
        }
    }

    public func get(_ path: String, token: String? = nil, headers: [String: String] = [:]) async throws -> Response {
        try await send(.GET, path, token: token, headers: headers)
    }

    public func post(_ path: String, json: (any Encodable)? = nil, token: String? = nil, headers: [String: String] = [:]) async throws
        -> Response
    {
        try await send(.POST, path, json: json, token: token, headers: headers)
    }

    public func put(_ path: String, json: (any Encodable)? = nil, token: String? = nil) async throws -> Response {
        try await send(.PUT, path, json: json, token: token)
    }

    public func patch(_ path: String, json: any Encodable, token: String? = nil) async throws -> Response {
        try await send(.PATCH, path, json: json, token: token)
    }

    public func delete(_ path: String, token: String? = nil) async throws -> Response {
        try await send(.DELETE, path, token: token)
    }

    /// Registers a new member and returns their session.
    public func register(name: String = "Test Player", email: String? = nil, password: String = "correct horse battery")
        async throws -> Session
    {
        let email = email ?? "player-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let response = try await post("/v1/auth/register", json: RegisterRequest(email: email, password: password, name: name))
        guard response.status == 201 else {
            throw MissingConfiguration(key: "register", hint: "expected 201, got \(response.status): \(response.text)")
        }
        return try response.decode(Session.self)
    }
}
