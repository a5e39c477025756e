import AsyncHTTPClient
import Contracts
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceKitTesting

/// What a browser does with the console, over real HTTP through the gateway: it keeps the cookies it
/// is given for `/admin`, follows no redirect by itself (so a test sees each 303), posts forms as
/// `application/x-www-form-urlencoded`, and says where a request came from (`Sec-Fetch-Site`).
actor ConsoleBrowser {
    let baseURL: String
    private(set) var cookies: [String: String] = [:]
    private static let client = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))

    init(_ gateway: TestClient) { baseURL = gateway.baseURL }

    struct Page {
        let status: Int
        let headers: HTTPHeaders
        let html: String
        var location: String? { headers.first(name: "Location") }

        /// The value of the first hidden `csrf` field on the page.
        var csrf: String? {
            guard let range = html.range(of: #"name="csrf" value=""#) else { return nil }
            return String(html[range.upperBound...].prefix { $0 != "\"" })
        }

        /// The `Set-Cookie` header that sets `name`.
        func setCookie(_ name: String) -> String? { headers["Set-Cookie"].first { $0.hasPrefix(name + "=") } }
    }

    func get(_ path: String) async throws -> Page {
        try await send(.GET, path, form: nil, site: "none")
    }

    func post(_ path: String, _ form: [(String, String)], site: String = "same-origin") async throws -> Page {
        try await send(.POST, path, form: form, site: site)
    }

    func forget(_ name: String) { cookies[name] = nil }
    func set(_ name: String, _ value: String) { cookies[name] = value }

    private func send(_ method: HTTPMethod, _ path: String, form: [(String, String)]?, site: String) async throws -> Page {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Sec-Fetch-Site", value: site)
        if !cookies.isEmpty {
            request.headers.add(
                name: "Cookie", value: cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        if let form {
            var components = URLComponents()
            components.queryItems = form.map { URLQueryItem(name: $0.0, value: $0.1) }
            // URLComponents leaves `+` alone, which a form decoder reads as a space.
            let body = (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await Self.client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 4 * 1024 * 1024)
        for header in response.headers["Set-Cookie"] {
            let pair = header.split(separator: ";", maxSplits: 1)[0].split(separator: "=", maxSplits: 1)
            guard let name = pair.first.map(String.init) else { continue }
            let value = pair.count > 1 ? String(pair[1]) : ""
            cookies[name] = header.contains("Max-Age=0") || value.isEmpty ? nil : value
        }
        return Page(status: Int(response.status.code), headers: response.headers, html: String(buffer: body))
    }
}
