/// Prefixes and headers shared by servers and clients. Each operation's own path is in its
/// description (`AuthAPI`, `CatalogAPI`, …).
public enum Routes {
    public static let publicPrefix = "/v1"

    /// Headers with a meaning across the stack.
    public enum Header {
        public static let requestID = "X-Request-Id"
        public static let idempotencyKey = IdempotencyKey.header
    }
}

/// The `Idempotency-Key` a client sends with a write it may retry: 1–255 characters. Servers read it
/// through this type only, and the document states it from the same values.
public struct IdempotencyKey: Sendable, Hashable, CustomStringConvertible {
    public static let header = "Idempotency-Key"
    public static let length = 1...255
    public static var schema: JSONSchema { .text(length) }

    public let description: String

    /// nil for a key of the wrong length.
    public init?(_ text: String) {
        guard Self.length.contains(text.count) else { return nil }
        description = text
    }

    public static let problem = Problem.FieldError(field: header, message: "must be 1 to 255 characters")
}
