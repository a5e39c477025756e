public import Contracts
public import Foundation
public import ServerContracts

/// The OpenAPI 3.1 document of the public API, written from the endpoint descriptions and the
/// Contracts types: paths, parameters and problems from the descriptions, schemas read off the
/// types by `SchemaReader` with the constraints the types declare. Nothing in it is written by hand.
public enum OpenAPIDocument {
    /// Problems the gateway itself can answer for any proxied operation.
    static let gatewayProblems: [ProblemCode] = [.rateLimited, .badUpstream, .upstreamUnavailable, .upstreamTimeout]

    public static func make(_ operations: [APIOperation] = API.publicOperations) throws -> Document {
        let reader = SchemaReader()
        let problem = try reader.schema(for: Problem.self)
        var paths: [String: [String: OperationObject]] = [:]
        for operation in operations {
            paths[operation.path.text, default: [:]][operation.method.rawValue.lowercased()] = try describe(
                operation, reader: reader, problem: problem)
        }
        return Document(
            openapi: "3.1.0",
            info: .init(
                title: "Huddle API", version: "1.0.0",
                description: "The public API of Huddle, served by the gateway. Errors are application/problem+json (RFC 9457) "
                    + "with a stable code. A wrong method on a known path answers 405 with Allow."),
            servers: [.init(url: "http://127.0.0.1:8080")],
            paths: paths,
            components: .init(
                schemas: reader.components,
                securitySchemes: ["bearer": .init(type: "http", scheme: "bearer", bearerFormat: "JWT")]))
    }

    public static func json(_ operations: [APIOperation] = API.publicOperations) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(try make(operations))
    }

    private static func describe(_ operation: APIOperation, reader: SchemaReader, problem: JSONSchema) throws -> OperationObject {
        var parameters = operation.pathParameters.map {
            ParameterObject(name: $0.name, in: "path", required: true, schema: $0.schema, description: nil)
        }
        parameters += operation.query.map {
            ParameterObject(name: $0.name, in: "query", required: $0.required, schema: $0.schema, description: $0.description)
        }
        if operation.requiresIdempotencyKey {
            parameters.append(
                ParameterObject(
                    name: Routes.Header.idempotencyKey, in: "header", required: true, schema: IdempotencyKey.schema,
                    description: "required (428 without): a retry with the same key and body answers what the first attempt did, "
                        + "and changes nothing again; the same key with another body is a 422"))
        } else if operation.acceptsIdempotencyKey {
            parameters.append(
                ParameterObject(
                    name: Routes.Header.idempotencyKey, in: "header", required: false, schema: IdempotencyKey.schema,
                    description: "a retry with the same key and body answers what the first attempt did (Idempotent-Replayed: true)"))
        }
        if operation.isConditional {
            parameters.append(
                ParameterObject(
                    name: "If-None-Match", in: "header", required: false, schema: .string,
                    description: "the ETag of the copy you hold: 304 without a body while it is current"))
        }
        var responses: [String: ResponseObject] = [:]
        if operation.output?.type is SeeOther.Type {
            responses[String(operation.successStatus)] = seeOther
        } else {
            let success = try operation.output.map { try reader.schema(for: $0.type) }
            responses[String(operation.successStatus)] = ResponseObject(
                description: operation.isWebSocket ? try webSocketDescription(operation, reader: reader) : "Success",
                headers: operation.isConditional ? cachingHeaders : nil,
                content: success.map { [mediaType(of: operation.output?.type): .init(schema: $0)] })
        }
        if operation.isConditional {
            responses["304"] = ResponseObject(
                description: "Not modified: the copy named by If-None-Match is current", headers: cachingHeaders)
        }
        let problems = operation.allProblems + (operation.owner == .gateway ? [] : gatewayProblems)
        for (status, kinds) in Dictionary(grouping: problems, by: \.status) {
            var schema = problem
            if let other = operation.otherAnswers[status] {
                // anyOf: such an answer is a problem with more fields (OddsChanged is one with the
                // current odds), so a body may match both.
                schema = JSONSchema()
                schema.anyOf = [try reader.schema(for: other.type), problem]
            }
            let codes = Set(kinds.map(\.code)).sorted().joined(separator: ", ")
            var content: [String: MediaObject] = ["application/problem+json": .init(schema: schema)]
            // A page answers what its user can put right as a page with the problem's status.
            if operation.isPage { content["text/html"] = .init(schema: .string) }
            responses[String(status)] = ResponseObject(description: codes, content: content)
        }
        for (status, other) in operation.otherAnswers where other.type is SeeOther.Type {
            responses[String(status)] = seeOther
        }
        for (status, other) in operation.otherAnswers where responses[String(status)] == nil {
            responses[String(status)] = ResponseObject(
                description: "See the schema", content: ["application/json": .init(schema: try reader.schema(for: other.type))])
        }
        var security: [[String: [String]]]?
        switch operation.access {
        case .signedIn: security = [["bearer": []]]
        case .anyone where operation.optionalSignIn: security = [[:], ["bearer": []]]
        case .anyone, .internalCaller: security = nil
        }
        return OperationObject(
            operationId: operationID(operation), summary: operation.summary, tags: [operation.owner.rawValue],
            security: security, parameters: parameters.isEmpty ? nil : parameters,
            requestBody: try operation.body.map { body in
                let schema = try reader.schema(for: body.type)
                return RequestBodyObject(
                    required: true,
                    content: Dictionary(uniqueKeysWithValues: Self.mediaTypes(ofBody: body.type).map { ($0, .init(schema: schema)) }))
            },
            responses: responses)
    }

    /// What a live socket's 101 says: the frames each side sends, from the description (their schemas
    /// are components of the document, so a generated client has their types), and how a device that
    /// cannot set `Authorization` on a WebSocket passes its token.
    static func webSocketDescription(_ operation: APIOperation, reader: SchemaReader) throws -> String {
        func frames(_ wire: WireType?) throws -> String? {
            guard let wire, let name = try reader.schema(for: wire.type).ref?.split(separator: "/").last.map(String.init) else {
                return nil
            }
            let kinds = reader.components[name]?.properties?["type"]?.ref.flatMap {
                reader.components[String($0.split(separator: "/").last ?? "")]
            }
            return "\(name) JSON text frames" + (kinds?.enum.map { " (type: \($0.joined(separator: ", ")))" } ?? "")
        }
        let text =
            "Switching to WebSocket. A device receives " + (try frames(operation.output) ?? "nothing") + "; it sends "
            + (try frames(operation.deviceFrames) ?? "nothing (what it sends is ignored)") + ". A request that is not an upgrade "
            + "is admitted as the upgrade would be, then answered 426; a refused upgrade is answered with the status and "
            + "problem listed here, before anything is upgraded."
        guard operation.access == .signedIn else { return text }
        return text + " The access token goes in Authorization: Bearer, or, from a device that cannot set headers on a "
            + "WebSocket, as the subprotocols `huddle` and `huddle.bearer.<token>` (the answer then names `huddle`)."
    }

    /// The media types a request body may have: JSON, a browser's form, or an image of a type
    /// uploads take.
    static func mediaTypes(ofBody body: any Decodable.Type) -> [String] {
        switch body {
        case is any FormBody.Type: ["application/x-www-form-urlencoded"]
        case is ImageBytes.Type: MediaContentType.allCases.map(\.rawValue)
        default: ["application/json"]
        }
    }

    /// The media type of a success body.
    static func mediaType(of output: (any Decodable.Type)?) -> String {
        switch output {
        case is PlainText.Type: "text/plain"
        case is HTMLPage.Type: "text/html"
        case is ImageBytes.Type: "image/jpeg"
        default: "application/json"
        }
    }

    /// A form's answer, or a page's without a session: the browser is sent on.
    static let seeOther = ResponseObject(
        description: "See Other: the browser goes to Location",
        headers: ["Location": HeaderObject(description: "the page to show next", schema: .string)])

    static let cachingHeaders: [String: HeaderObject] = [
        "ETag": HeaderObject(description: "names this version of the answer; send it back as If-None-Match", schema: .string),
        "Cache-Control": HeaderObject(
            description: "how long the answer may be used without asking again: public, max-age=N where anyone gets the same answer; "
                + "private, max-age=N for a signed-in player's own (0: ask again with If-None-Match each time)",
            schema: .string),
    ]

    /// `POST /v1/teams/{id}/join` → `postTeamsIdJoin`.
    static func operationID(_ operation: APIOperation) -> String {
        let words = operation.path.segments.compactMap { segment -> String? in
            switch segment {
            case .literal(let text) where text == "v1": nil
            case .literal(let text), .parameter(let text): text
            }
        }
        let name = words.flatMap { $0.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) }
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return operation.method.rawValue.lowercased() + name
    }

    // MARK: The document's shape

    public struct Document: Codable, Sendable {
        public var openapi: String
        public var info: Info
        public var servers: [Server]
        public var paths: [String: [String: OperationObject]]
        public var components: Components
    }

    public struct Info: Codable, Sendable {
        public var title: String
        public var version: String
        public var description: String
    }

    public struct Server: Codable, Sendable {
        public var url: String
    }

    public struct Components: Codable, Sendable {
        public var schemas: [String: JSONSchema]
        public var securitySchemes: [String: SecurityScheme]
    }

    public struct SecurityScheme: Codable, Sendable {
        public var type: String
        public var scheme: String
        public var bearerFormat: String
    }

    public struct OperationObject: Codable, Sendable {
        public var operationId: String
        public var summary: String
        public var tags: [String]
        public var security: [[String: [String]]]?
        public var parameters: [ParameterObject]?
        public var requestBody: RequestBodyObject?
        public var responses: [String: ResponseObject]
    }

    public struct ParameterObject: Codable, Sendable {
        public var name: String
        public var `in`: String
        public var required: Bool
        public var schema: JSONSchema
        public var description: String?
    }

    public struct RequestBodyObject: Codable, Sendable {
        public var required: Bool
        public var content: [String: MediaObject]
    }

    public struct ResponseObject: Codable, Sendable {
        public var description: String
        public var headers: [String: HeaderObject]? = nil
        public var content: [String: MediaObject]? = nil
    }

    public struct HeaderObject: Codable, Sendable {
        public var description: String
        public var schema: JSONSchema
    }

    public struct MediaObject: Codable, Sendable {
        public var schema: JSONSchema
    }
}
