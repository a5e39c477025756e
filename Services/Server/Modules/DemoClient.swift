import AsyncHTTPClient
import Contracts
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceKit

/// JSON over HTTP for seeding demo data through the public API, as a client app would.
struct DemoClient {
    let baseURL: String

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends a request; returns the status and the decoded body when `T` is not `Empty`.
    func send<T: Decodable>(
        _ method: HTTPMethod, _ path: String, json: (any Encodable)? = nil, token: String? = nil, headers: [String: String] = [:],
        as: T.Type = Empty.self
    ) async throws -> (status: Int, value: T?) {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try HuddleJSON.encoder.encode(json)))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 * 1024 * 1024)
        let status = Int(response.status.code)
        guard (200..<300).contains(status), T.self != Empty.self else { return (status, nil) }
        return (status, try HuddleJSON.decoder.decode(T.self, from: Data(buffer: body)))
    }

    /// Like `send`, but anything other than 2xx is an error.
    func expect<T: Decodable>(
        _ method: HTTPMethod, _ path: String, json: (any Encodable)? = nil, token: String? = nil, headers: [String: String] = [:],
        as: T.Type
    ) async throws -> T {
        let (status, value) = try await send(method, path, json: json, token: token, headers: headers, as: T.self)
        guard let value else { throw Failed(description: "\(method) \(path) answered \(status)") }
        return value
    }

    struct Empty: Decodable {}
}
