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

/// Every public operation, and every internal one, of the modules that exist.
public enum API {
    public static let publicOperations: [APIOperation] =
        GatewayAPI.all + AuthAPI.all + CatalogAPI.all + GamesAPI.all + SearchAPI.all + BettingAPI.all + ChatAPI.all + NotifyAPI.all
        + PurchasesAPI.all + ModerationAPI.all + ConsoleAPI.all
    public static let internalOperations: [APIOperation] =
        AuthAPI.Internal.all + CatalogAPI.Internal.all + GamesAPI.Internal.all + SearchAPI.Internal.all
        + BettingAPI.Internal.all + ChatAPI.Internal.all + NotifyAPI.Internal.all + PurchasesAPI.Internal.all
        + ModerationAPI.Internal.all

    /// The operations a module answers.
    public static func operations(of module: ServiceModule) -> [APIOperation] {
        (publicOperations + internalOperations).filter { $0.owner == module }
    }
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
