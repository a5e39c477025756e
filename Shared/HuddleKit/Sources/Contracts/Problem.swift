public import Foundation

/// RFC 9457 problem details, the body of every error response (`application/problem+json`).
public struct Problem: Codable, Equatable, Sendable, Error {
    public struct FieldError: Codable, Equatable, Sendable {
        public var field: String
        public var message: String

        public init(field: String, message: String) {
            self.field = field
            self.message = message
        }
    }

    public var type: String
    public var title: String
    public var status: Int
    public var detail: String?
    /// Stable machine-readable code, e.g. `EMAIL_TAKEN`; clients switch on this, not on `detail`.
    public var code: String
    public var errors: [FieldError]?
    /// With `ENTITLEMENT_REQUIRED`: the products that unlock what was refused.
    public var productIds: [String]?
    /// With `ACCOUNT_SUSPENDED`: when the suspension ends (absent for a ban).
    public var until: Date?
    /// With `REFILL_NOT_DUE`: when the wallet may be refilled (absent while it holds the grant).
    public var availableAt: Date?
    /// The trace the request was part of, when it was traced (32 hex digits, as in `traceparent`):
    /// quote it, with the `X-Request-Id` header, when reporting a problem.
    public var traceId: String?

    public init(
        type: String = "about:blank", title: String, status: Int, detail: String? = nil, code: String,
        errors: [FieldError]? = nil, productIds: [String]? = nil, until: Date? = nil, availableAt: Date? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.code = code
        self.errors = errors
        self.productIds = productIds
        self.until = until
        self.availableAt = availableAt
    }

    public static let mediaType = "application/problem+json"
}
