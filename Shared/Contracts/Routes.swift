/// Paths shared by servers and clients, so a route cannot drift between them.
public enum Routes {
    public static let publicPrefix = "/v1"
    public static let internalPrefix = "/internal"
    public static let jwks = "/.well-known/jwks.json"
    public static let health = "/health"
    public static let metrics = "/metrics"
    public static let openAPI = "/openapi.json"

    public enum Internal {
        public static let revokedSessions = "/internal/sessions/revoked"
        public static let events = "/internal/events"
        public static let profiles = "/internal/users/profiles"
        /// Catalog's news ingest, fed by provider adapters.
        public static let news = "/internal/news"
        /// Full snapshots a read model rebuilds from: `/internal/snapshots/{teams|courses|venues|games|profiles}?cursor=`.
        public static let snapshots = "/internal/snapshots"
    }

    /// Headers with a meaning across the stack.
    public enum Header {
        public static let requestID = "X-Request-Id"
        public static let internalToken = "X-Internal-Token"
        public static let idempotencyKey = "Idempotency-Key"
    }
}
