public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// One HTTP exchange as HuddleKit sees it; a transport carries it. Header names are lower-cased in
/// responses.
public struct HTTPRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }
}

/// Carries requests to Huddle: URLSession by default; tests and server-side callers plug in their own.
public protocol HTTPTransport: Sendable {
    /// Throws `TransportFailure` when no answer arrived (refused, reset, timed out): the request may
    /// or may not have reached the server.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// No answer arrived for a request.
public struct TransportFailure: Error, Sendable {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
}

/// `URLSession`, on every platform (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    let session: URLSession

    public init(session: URLSession = .shared) { self.session = session }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        // The completion-handler form: the async one is missing from older Linux Foundations.
        let (data, response): (Data, URLResponse) = try await withCheckedThrowingContinuation { continuation in
            session.dataTask(with: urlRequest) { data, response, error in
                if let error {
                    continuation.resume(throwing: TransportFailure(error.localizedDescription))
                } else if let response {
                    continuation.resume(returning: (data ?? Data(), response))
                } else {
                    continuation.resume(throwing: TransportFailure("no response"))
                }
            }.resume()
        }
        guard let http = response as? HTTPURLResponse else { throw TransportFailure("not an HTTP response") }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: data)
    }
}
