public import HTTPTypes

/// A limit as the IETF's RateLimit header fields describe it (draft-ietf-httpapi-ratelimit-headers):
/// `RateLimit-Policy: "sign-in";q=3;w=900` names the policy, its quota and its window in seconds;
/// `RateLimit: "sign-in";r=0;t=12` what is left of the quota and the seconds until there is more.
/// Every 429 carries both, with `Retry-After`, so a client knows which limit it met and when to
/// come back.
public struct RateLimitPolicy: Sendable, Equatable {
    public let name: String
    public let quota: Int
    public let windowSeconds: Int

    public init(name: String, quota: Int, windowSeconds: Int) {
        self.name = name
        self.quota = max(1, quota)
        self.windowSeconds = max(1, windowSeconds)
    }

    /// The fields of an answer refused for this policy, to be tried again in `retryAfter` seconds.
    public func refusal(retryAfter seconds: Int) -> HTTPFields {
        var fields = HTTPFields()
        fields[.retryAfter] = String(seconds)
        fields[Self.policyField] = "\"\(name)\";q=\(quota);w=\(windowSeconds)"
        fields[Self.stateField] = "\"\(name)\";r=0;t=\(seconds)"
        return fields
    }

    public static let policyField = HTTPField.Name("RateLimit-Policy")!
    public static let stateField = HTTPField.Name("RateLimit")!
}
