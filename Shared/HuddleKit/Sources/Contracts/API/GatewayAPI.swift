/// What the gateway answers itself.
public enum GatewayAPI {
    public static let health = Endpoint<Anyone, NoBody, GatewayHealth>(
        .get, "/health", owner: .gateway,
        summary: "Whether the gateway and the modules behind it are up (503 with the same body when not); which module is down, and "
            + "the metrics, are served only on the gateway's operations listener (gateway.ops.http.*)",
        otherAnswers: [503: GatewayHealth.self])
    public static let openAPI = Endpoint<Anyone, NoBody, JSONObject>(
        .get, "/openapi.json", owner: .gateway, summary: "This document (OpenAPI 3.1)")

    public static let all: [APIOperation] = [health.operation, openAPI.operation]
}

/// Every operation an app may call: what HuddleKit's package describes.
public enum AppAPI {
    public static let operations: [APIOperation] =
        GatewayAPI.all + AuthAPI.all + CatalogAPI.all + GamesAPI.all + SearchAPI.all + BettingAPI.all + ChatAPI.all + NotifyAPI.all
        + PurchasesAPI.all + ModerationAPI.all + MediaAPI.all
}

/// `GET /health` of the gateway: up or down, and nothing a stranger could map the deployment by.
public struct GatewayHealth: Codable, Sendable, Equatable {
    /// `ok` or `degraded`.
    public var status: String

    public init(status: String) {
        self.status = status
    }
}

/// A `text/plain` answer.
public struct PlainText: Codable, Sendable, Equatable, SchemaDescribed {
    public var text: String
    public init(_ text: String) { self.text = text }
    public init(from decoder: any Decoder) throws { text = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
    public static var schema: JSONSchema { .string }
    public static var schemaSample: PlainText { PlainText("") }
}

/// Any JSON object.
public struct JSONObject: Codable, Sendable, Equatable, SchemaDescribed {
    public init() {}
    public init(from decoder: any Decoder) throws {}
    public func encode(to encoder: any Encoder) throws {}
    public static var schema: JSONSchema { .object }
    public static var schemaSample: JSONObject { JSONObject() }
}
