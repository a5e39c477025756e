public import Contracts
import Foundation
public import Hummingbird
import NIOHTTP1

/// An error a client may see. Each service has one `enum <Name>Error: ProblemError` whose cases
/// carry a stable `code`; internal detail never goes into the problem.
public protocol ProblemError: HTTPResponseError {
    var problem: Problem { get }
    /// Extra response headers, e.g. `Retry-After`.
    var headers: HTTPFields { get }
}

extension ProblemError {
    public var status: HTTPResponse.Status { .init(code: problem.status) }
    public var headers: HTTPFields { [:] }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try ProblemResponse.make(problem, headers: headers)
    }
}

public enum ProblemResponse {

    /// The problem names the trace it happened in, beside the `X-Request-Id` header.
    public static func make(_ problem: Problem, headers extra: HTTPFields = [:]) throws -> Response {
        let (headers, body) = try parts(problem, headers: extra, traceID: TraceContext.traceID)
        return Response(status: .init(code: problem.status), headers: headers, body: .init(byteBuffer: body))
    }

    /// `problem` naming the trace it happened in, for a problem sent inside a body of another shape
    /// (a conflict with the current state beside it).
    public static func traced(_ problem: Problem) -> Problem {
        var problem = problem
        if problem.traceId == nil { problem.traceId = TraceContext.traceID }
        return problem
    }

    /// The headers and body of `problem`'s response, naming `traceID` unless it names a trace already.
    public static func parts(_ problem: Problem, headers extra: HTTPFields = [:], traceID: String?) throws -> (HTTPFields, ByteBuffer) {
        var problem = ProblemTexts.localized(problem, in: RequestLanguage.current)
        if problem.traceId == nil { problem.traceId = traceID }
        var headers = extra
        headers[.contentType] = Problem.mediaType
        return (headers, ByteBuffer(bytes: try HuddleJSON.encoder.encode(problem)))
    }
}

/// Problems every service can raise; services add their own next to these.
public enum CommonError: ProblemError {
    /// Its messages are in the request's language: from the schema's rules, translated as the
    /// problem is rendered; from a module's own rules, as they are raised (`invalid`).
    case validation([Problem.FieldError])
    case malformedBody(ProblemText)
    /// nil: the usual "a valid access token is required".
    case unauthorized(ProblemText? = nil)
    case forbidden(ProblemText)
    case notFound(ProblemText)
    /// No `noun` (a `NamedThing`'s) with this id.
    case noSuch(noun: String, id: String)
    /// No endpoint at this path and method.
    case noSuchRoute
    /// The path exists, the method does not; `allow` lists those that do.
    case methodNotAllowed(allow: [String])
    /// A retry whose first attempt with the same `Idempotency-Key` has not finished.
    case idempotencyKeyInUse
    /// A write described with `idempotencyKeyRequired` sent without the key.
    case idempotencyKeyRequired
    case dependencyUnavailable(String)
    case rateLimited(retryAfterSeconds: Int, policy: RateLimitPolicy)
    /// The instance holds all the live sockets it takes (`OpenSockets.cap`): 503 with `Retry-After`.
    case atCapacity(retryAfterSeconds: Int)
    case payloadTooLarge(limitBytes: Int)
    /// A live socket's path asked for over plain HTTP.
    case webSocketRequired
    case internalError
    case http(status: Int, message: String?)

    public static func invalid(_ field: String, _ message: ProblemText) -> CommonError {
        .validation([.init(field: field, message: message.localized)])
    }

    /// The one 404 for a thing looked up by id, worded from its id's tag ("No team with id …."),
    /// whether it does not exist or the caller may not know that it does.
    public static func missing<Tag: NamedThing>(_ id: TypedID<Tag>) -> CommonError { .noSuch(noun: Tag.noun, id: "\(id)") }

    public var problem: Problem {
        switch self {
        case .validation(let errors):
            let detail = errors.map { "\($0.field): \($0.message)" }.joined(separator: "; ")
            return Problem(
                .validationFailed,
                title: "Invalid request", detail: detail, errors: errors)
        case .malformedBody(let detail):
            return Problem(
                .malformedBody, title: "Malformed request body", detail: detail.localized)
        case .unauthorized(let detail):
            return Problem(
                .unauthorized, title: "Unauthorized", detail: (detail ?? "A valid access token is required.").localized)
        case .forbidden(let detail):
            return Problem(
                .forbidden, title: "Forbidden", detail: detail.localized)
        case .notFound(let detail):
            return Problem(
                .notFound, title: "Not found", detail: detail.localized)
        case .noSuch(let noun, let id):
            return Problem(.notFound, title: "Not found", detail: localized("No \(ProblemTexts.noun(noun)) with id \(id)."))
        case .noSuchRoute:
            return Problem(.noSuchRoute, title: "Not found", detail: localized("No such endpoint."))
        case .methodNotAllowed(let allow):
            return Problem(
                .methodNotAllowed, title: "Method not allowed",
                detail: localized("This path answers \(allow.joined(separator: ", "))."))
        case .idempotencyKeyRequired:
            return Problem(
                .idempotencyKeyRequired, title: "Idempotency-Key required",
                detail: localized("This write needs an Idempotency-Key header, so that a retry cannot do it twice."))
        case .idempotencyKeyInUse:
            return Problem(
                .idempotencyKeyInUse, title: "Request in progress",
                detail: localized("A request with this Idempotency-Key is still being processed; retry shortly."))
        case .dependencyUnavailable(let name):
            return Problem(
                .dependencyUnavailable,
                title: "Service unavailable", detail: localized("\(name) is unavailable; try again shortly."))
        case .rateLimited(let seconds, _):
            return Problem(
                .rateLimited,
                title: "Too many requests", detail: localized("Try again in \(seconds) s."))
        case .atCapacity(let seconds):
            return Problem(
                .dependencyUnavailable, title: "Service unavailable",
                detail: localized("This server holds all the live connections it takes; connect again in \(seconds) s."))
        case .payloadTooLarge(let limit):
            return Problem(
                .payloadTooLarge,
                title: "Payload too large", detail: localized("The request body exceeds \(limit) bytes."))
        case .webSocketRequired:
            return Problem(.webSocketRequired, title: "Upgrade required", detail: localized("Connect to this path with a WebSocket."))
        case .internalError:
            return Problem(
                .internalError,
                title: "Internal error", detail: localized("Something went wrong on our side."))
        case .http(let status, let message):
            // NIO's phrases: swift-http-types gives one only to the statuses it names as constants, so
            // `Status(code: 404)` has none, and problems from a bare status went out with an empty code.
            let reason = HTTPResponseStatus(statusCode: status).reasonPhrase
            return Problem(
                title: reason.isEmpty ? "Error" : reason, status: status, detail: message,
                code: reason.isEmpty ? "HTTP_\(status)" : reason.uppercased().replacingOccurrences(of: " ", with: "_"))
        }
    }

    public var headers: HTTPFields {
        switch self {
        case .rateLimited(let seconds, let policy): policy.refusal(retryAfter: seconds)
        case .methodNotAllowed(let allow): [.allow: allow.joined(separator: ", ")]
        case .atCapacity(let seconds): [.retryAfter: String(seconds)]
        default: [:]
        }
    }
}

extension Optional {
    /// The value, or the 404 for `id` when there is none (`CommonError.missing`).
    public func orMissing<Tag: NamedThing>(_ id: TypedID<Tag>) throws -> Wrapped {
        guard let self else { throw CommonError.missing(id) }
        return self
    }
}
