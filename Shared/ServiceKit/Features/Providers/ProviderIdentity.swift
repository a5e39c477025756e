public import AsyncHTTPClient
import Foundation
public import NIOCore
import NIOHTTP1
import ServiceHTTP
import Tracing

/// How an instance names itself to outside providers: `User-Agent: Huddle (<instance>)`, the
/// instance being its host name (in Kubernetes, the pod's, which it is given as `HOSTNAME`). A
/// provider's support, and the stand-in's request log, can then tell replicas apart.
public enum ProviderIdentity {
    public static let userAgent = "Huddle (\(ProcessInfo.processInfo.environment["HOSTNAME"] ?? ProcessInfo.processInfo.hostName))"
}

extension HTTPClientRequest {
    /// A request to an outside provider, carrying `ProviderIdentity`.
    public static func toProvider(_ url: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.headers.replaceOrAdd(name: "User-Agent", value: ProviderIdentity.userAgent)
        return request
    }
}

extension HTTPClient {
    /// A call to an outside provider, as a client span of the current trace named by the provider
    /// and what is asked of it ("APNs push", "football odds"), so a trace shows which provider a
    /// request or event waited on. The client's own span for the HTTP exchange is its child.
    public func callProvider(_ provider: String, _ operation: String, _ request: HTTPClientRequest, timeout: TimeAmount) async throws
        -> HTTPClientResponse
    {
        try await withSpanWhenTraced("\(provider) \(operation)", ofKind: .client) { span in
            span?.attributes["huddle.provider"] = provider
            span?.attributes["http.request.method"] = request.method.rawValue
            let response = try await execute(request, timeout: timeout)
            span?.attributes["http.response.status_code"] = Int(response.status.code)
            if response.status.code >= 500 { span?.setStatus(SpanStatus(code: .error)) }
            return response
        }
    }
}
