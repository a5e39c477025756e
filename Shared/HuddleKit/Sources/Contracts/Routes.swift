/// Prefixes and headers shared by servers and clients. Each operation's own path is in its
/// description (`AuthAPI`, `CatalogAPI`, …).
public enum Routes {
    public static let publicPrefix = "/v1"
    public static let internalPrefix = "/internal"

    /// Headers with a meaning across the stack.
    public enum Header {
        public static let requestID = "X-Request-Id"
        public static let internalToken = "X-Internal-Token"
        public static let idempotencyKey = "Idempotency-Key"
    }
}
