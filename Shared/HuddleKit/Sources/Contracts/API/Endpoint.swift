import Foundation

/// One operation of the API, described once: servers register their handler against it, the
/// gateway routes by it, the OpenAPI document is written from it, and clients (internal clients,
/// HuddleKit) call through it. Nothing about a route is written anywhere else.
///
/// `Access` says who may call it (`Anyone`, `SignedIn`, `InternalCaller`) as a type, so a handler for
/// a signed-in operation is handed a context that proves a signed-in user; `Body` is the JSON request
/// body (`NoBody` for none) and `Output` the JSON answer (`NoContent` for 204).
public struct Endpoint<Access: EndpointAccess, Body: Codable & Sendable, Output: Codable & Sendable>: Sendable {
    public let operation: APIOperation

    public init(
        _ method: HTTPVerb, _ path: String, owner: ServiceModule, summary: String, status: Int = 200,
        query: [any QueryDescribing] = [], pathParameters: [String: JSONSchema] = [:], problems: [ProblemCode] = [],
        traits: OperationTraits = [], deviceSends: (any Decodable.Type)? = nil, otherAnswers: [Int: any Decodable.Type] = [:]
    ) {
        let template = PathTemplate(path)
        operation = APIOperation(
            method: method, path: template, owner: owner, access: Access.kind, summary: summary,
            successStatus: Output.self == NoContent.self ? 204 : status,
            query: query.flatMap(\.queryParameters),
            pathParameters: template.parameterNames.map { PathParameter(name: $0, schema: pathParameters[$0] ?? .uuid) },
            body: Body.self == NoBody.self ? nil : WireType(Body.self),
            output: Output.self == NoContent.self ? nil : WireType(Output.self),
            problems: problems, optionalSignIn: traits.contains(.optionalSignIn),
            acceptsIdempotencyKey: !traits.isDisjoint(with: [.idempotent, .idempotencyKeyRequired]),
            requiresIdempotencyKey: traits.contains(.idempotencyKeyRequired), isWebSocket: traits.contains(.webSocket),
            deviceFrames: deviceSends.map(WireType.init), isConditional: traits.contains(.conditional),
            otherAnswers: otherAnswers.mapValues(WireType.init))
    }

    /// The path with its `{parameters}` filled in order, each escaped for a path segment.
    public func path(_ values: any CustomStringConvertible...) -> String { operation.path.filled(values.map(\.description)) }
}

/// What a description adds to an operation's shape, by name rather than as a row of Booleans.
public struct OperationTraits: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// For `Anyone`: a valid token, when sent, shows more (e.g. `bookmarked`).
    public static let optionalSignIn = Self(rawValue: 1 << 0)
    /// A write a client may retry with an `Idempotency-Key` (the `IdempotencyMiddleware` replays it).
    public static let idempotent = Self(rawValue: 1 << 1)
    /// A write that takes no request without an `Idempotency-Key` (428) and keeps it with its effect.
    public static let idempotencyKeyRequired = Self(rawValue: 1 << 2)
    /// A live socket (101); `deviceSends:` names the frames a device sends on it.
    public static let webSocket = Self(rawValue: 1 << 3)
    /// Answers carry `ETag` and `Cache-Control`; `If-None-Match` with the current tag is a 304.
    public static let conditional = Self(rawValue: 1 << 4)
}

/// What every description says, without its Swift types: the view the gateway, the document and
/// the completeness checks work from.
public struct APIOperation: Sendable {
    public let method: HTTPVerb
    public let path: PathTemplate
    public let owner: ServiceModule
    public let access: AccessKind
    public let summary: String
    /// 200, 201 or 204 (101 for a WebSocket).
    public let successStatus: Int
    public let query: [QueryParameter]
    public let pathParameters: [PathParameter]
    public let body: WireType?
    public let output: WireType?
    /// Problems particular to this operation; those that follow from its shape (a body that does not
    /// parse, a missing token, an unknown id, bad query values) are added by `allProblems`.
    public let problems: [ProblemCode]
    /// For `Anyone`: a valid token, when sent, shows more (e.g. `bookmarked`).
    public let optionalSignIn: Bool
    /// Writes a client may retry with an `Idempotency-Key` header.
    public let acceptsIdempotencyKey: Bool
    /// Writes that take no request without an `Idempotency-Key` (428) and keep it in the same
    /// transaction as their effect (a ticket and its debit), rather than in `IdempotencyMiddleware`'s
    /// separate one.
    public let requiresIdempotencyKey: Bool
    public let isWebSocket: Bool
    /// The frames a device sends on a live socket (nil: it sends none); those it receives are `output`.
    public let deviceFrames: WireType?
    /// Answers carry `ETag` and `Cache-Control`; `If-None-Match` with the current tag is a 304
    /// without a body.
    public let isConditional: Bool
    /// Answers with a body other than a problem, by status (a 409 that carries the current card).
    public let otherAnswers: [Int: WireType]

    /// `GET /v1/teams/{id}`.
    public var name: String { "\(method.rawValue) \(path.text)" }

    /// Every problem this operation can answer, those its shape implies included, by status.
    public var allProblems: [ProblemCode] {
        // The gateway answers a request line longer than its limit before any module sees it.
        var implied: [ProblemCode] = access == .internalCaller ? [] : [.uriTooLong]
        if body != nil { implied += [.malformedBody, .validationFailed, .payloadTooLarge] }
        if access == .signedIn { implied.append(.unauthorized) }
        // Staff work (what answers 403 to others) needs a second factor where the deployment requires one.
        if access == .signedIn, problems.contains(.forbidden) { implied.append(.secondFactorSetupRequired) }
        if optionalSignIn { implied.append(.unauthorized) }
        if !query.isEmpty { implied.append(.validationFailed) }
        if pathParameters.contains(where: { $0.schema.format == "uuid" }) { implied.append(.notFound) }
        if requiresIdempotencyKey {
            implied += [.validationFailed, .idempotencyKeyRequired]
        } else if acceptsIdempotencyKey {
            implied += [.validationFailed, .idempotencyKeyInUse]
        }
        var seen = Set<ProblemCode>()
        return (implied + problems).filter { seen.insert($0).inserted }.sorted { ($0.status, $0.code) < ($1.status, $1.code) }
    }
}

public enum HTTPVerb: String, Sendable, CaseIterable, Codable {
    case get = "GET", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"
}

/// `internalCaller`: another module of Huddle, whose descriptions (`InternalCaller`) only the servers'
/// package holds.
public enum AccessKind: String, Sendable {
    case anyone, signedIn, internalCaller
}

/// Who may call an operation, as a type (`Endpoint<SignedIn, …>`).
public protocol EndpointAccess: Sendable {
    static var kind: AccessKind { get }
}

/// No token needed.
public enum Anyone: EndpointAccess { public static let kind = AccessKind.anyone }
/// A valid access token needed (401 otherwise).
public enum SignedIn: EndpointAccess { public static let kind = AccessKind.signedIn }

/// The body of an operation that takes none.
public struct NoBody: Codable, Sendable, Equatable {
    public init() {}
}

/// The answer of an operation that answers 204 No Content.
public struct NoContent: Codable, Sendable, Equatable {
    public init() {}
}

/// A Codable type named in a description; the document derives its schema from the type itself.
public struct WireType: Sendable {
    public let type: any Decodable.Type
    public init(_ type: any Decodable.Type) { self.type = type }
}

public struct QueryParameter: Sendable {
    public let name: String
    public let schema: JSONSchema
    public let required: Bool
    public let description: String?

    public init(_ name: String, _ schema: JSONSchema, required: Bool = false, description: String? = nil) {
        self.name = name
        self.schema = schema
        self.required = required
        self.description = description
    }
}

public struct PathParameter: Sendable {
    public let name: String
    public let schema: JSONSchema
}

/// `/v1/teams/{id}/members/{userId}`: literal segments and named parameters.
public struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    public let text: String
    public let segments: [Segment]

    public init(_ text: String) {
        self.text = text
        segments = text.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
    }

    public var description: String { text }

    public var parameterNames: [String] {
        segments.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// Whether a request path (without its query) names this template.
    public func matches(_ path: some StringProtocol) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        guard parts.count == segments.count else { return false }
        return zip(segments, parts).allSatisfy { segment, part in
            if case .literal(let literal) = segment { return literal == part }
            return true
        }
    }

    /// Literal segments count for more than parameters, so `/v1/users/me` wins over `/v1/users/{id}`.
    public var specificity: Int {
        segments.reduce(0) { total, segment in if case .literal = segment { total * 2 + 1 } else { total * 2 } }
    }

    public func filled(_ values: [String]) -> String {
        var remaining = values[...]
        let parts = segments.map { segment -> String in
            switch segment {
            case .literal(let literal): return literal
            case .parameter(let name):
                guard let value = remaining.popFirst() else { preconditionFailure("no value for {\(name)} of \(text)") }
                return value.addingPercentEncoding(withAllowedCharacters: .pathSegmentAllowed) ?? value
            }
        }
        precondition(remaining.isEmpty, "too many values for \(text)")
        return "/" + parts.joined(separator: "/")
    }
}

extension CharacterSet {
    fileprivate static let pathSegmentAllowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
}
