import Contracts
import Foundation
public import HTTPTypes
public import Hummingbird
import Logging
import ServerContracts

/// Accepts a sane `X-Request-Id` or makes one, puts it on every log line of the request
/// (`RequestMetadata`) and on every response — error responses included, which is why errors
/// are rendered here rather than further out.
public struct RequestIDMiddleware: RouterMiddleware {
    public typealias Context = HuddleRequestContext

    public init() {}

    public func handle(
        _ request: Request, context: HuddleRequestContext,
        next: (Request, HuddleRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        let requestID = Self.requestID(for: request.headers)
        context.requestID = requestID
        var response: Response
        do {
            // The problems a handler raises read in the request's language from where they are raised.
            let language = Language(acceptLanguage: request.headers[.acceptLanguage]) ?? .en
            response = try await RequestMetadata.$requestID.withValue(requestID) {
                try await RequestLanguage.$current.withValue(language) { try await next(request, context) }
            }
        } catch {
            response = try RequestMetadata.$requestID.withValue(requestID) {
                try ProblemMiddleware.render(error, request: request, context: context)
            }
        }
        response.headers[.requestID] = requestID
        return response
    }

    /// The request's own id when acceptable, else a new one. Every path that takes requests (HTTP
    /// routes, WebSocket upgrades) names them this way.
    public static func requestID(for headers: HTTPFields) -> String {
        requestID(offered: headers.value(of: .requestID))
    }

    /// `offered` (the request's `X-Request-Id`) when acceptable, else a new id.
    public static func requestID(offered: String?) -> String {
        acceptable(offered) ?? UUID.random().lowercasedString
    }

    /// Client-given ids are echoed only when short and printable, so they cannot forge log lines.
    static func acceptable(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.count <= 128,
            value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { return nil }
        return value
    }
}

// Names of fixed, valid header spellings: the force-unwraps cannot fail.
extension HTTPField.Name {
    public static let requestID = Self("X-Request-Id")!
    public static let internalToken = Self("X-Internal-Token")!
    public static let idempotencyKey = Self("Idempotency-Key")!
    public static let forwardedFor = Self("X-Forwarded-For")!
}

extension Request {
    /// The address of the device that sent the request: the last `X-Forwarded-For` entry, which the
    /// gateway appends (modules are reached only through it), else the connection's own address.
    public func clientAddress(_ context: HuddleRequestContext) -> String {
        if let forwarded = headers.value(of: .forwardedFor)?.split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
            !forwarded.isEmpty
        {
            return forwarded
        }
        return context.remoteAddress?.ipAddress ?? "unknown"
    }
}
