public import AsyncHTTPClient
import Foundation
import NIOHTTP1

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
