public import Contracts
import Foundation
public import Hummingbird
import NIOFoundationCompat
import ServerContracts

extension Request {
    /// Decodes a JSON body, turning decoding failures into problems that name the field:
    /// 400 for a body that is not JSON at all, 422 for a missing or wrongly typed field.
    /// `checkingSchema: false` decodes with the type alone: for internal operations, whose callers are
    /// Huddle's own modules encoding the same Contracts type. Building the schema check's JSON tree was
    /// a tenth of search's CPU when indexing (a thousand events a delivery), on the delivery's serial
    /// path: 10,100 → 11,000 events/s at 100,000 games without it.
    public func decodeJSON<T: Decodable>(_ type: T.Type, context: some RequestContext, checkingSchema: Bool = true) async throws -> T {
        let buffer = try await collectBody(context: context)
        guard buffer.readableBytes > 0 else { throw CommonError.malformedBody("A JSON body is required.") }
        let data = Data(buffer: buffer)
        guard checkingSchema else {
            try JSONTree.requireShallow(data)
            return try Self.decode(T.self, from: data)
        }
        // The body is checked against the schema the document states before it is decoded, so every
        // rule there is enforced here, and a field is named in the project's words. The tree
        // (`JSONTree`) and the decoder that then reads the type both take a repeated field's first
        // value. Foundation's JSONSerialization takes its last, so a valid second copy would carry an
        // invalid first one past the check.
        let value: JSONValue
        do {
            value = try JSONTree.read(data)
        } catch .tooDeep {
            throw CommonError.malformedBody(JSONTree.tooDeepDetail)
        } catch {
            throw CommonError.malformedBody("The body is not valid JSON.")
        }
        try BodySchemas.shared.check(value, as: T.self)
        return try Self.decode(T.self, from: data)
    }

    private static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try HuddleJSON.decoder.decode(T.self, from: data)
        } catch let error as DecodingError {
            throw problem(for: error)
        } catch {
            throw CommonError.malformedBody("The body is not valid JSON.")
        }
    }

    /// The whole body, up to the context's upload limit (413 beyond it).
    public func collectBody(context: some RequestContext) async throws -> ByteBuffer {
        do {
            return try await body.collect(upTo: context.maxUploadSize)
        } catch {
            throw CommonError.payloadTooLarge(limitBytes: context.maxUploadSize)
        }
    }

    static func problem(for error: DecodingError) -> CommonError {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            let keys = codingPath + (last.map { [$0] } ?? [])
            return keys.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
                .joined().trimmingPrefix(".").description
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .invalid(path(context.codingPath, key), "is required")
        case .valueNotFound(_, let context):
            return .invalid(path(context.codingPath), "must not be null")
        case .typeMismatch(let type, let context):
            return .invalid(path(context.codingPath), ProblemText(english: "must be \(describe(type))"))
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .malformedBody("The body is not valid JSON.")
        case .dataCorrupted(let context) where context.debugDescription.first?.isUppercase == true:
            // Foundation's own wording ("Cannot initialize Sport from invalid String value …") names Swift
            // types; the project's decoders write lower-case phrases meant for clients.
            return .invalid(path(context.codingPath), "has an invalid value")
        case .dataCorrupted(let context):
            return .invalid(path(context.codingPath), ProblemText(english: context.debugDescription))
        @unknown default:
            return .malformedBody("The body could not be read.")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: type is any Collection.Type ? "an array" : "an object"
        }
    }
}

extension Parameters {
    /// The typed id in a path parameter (`{id}` unless named). One that is not a UUID names nothing,
    /// so it is a 404 like any unknown id, worded after what the id names ("No team with id …").
    public func id<Tag: NamedThing>(_ type: TypedID<Tag>.Type, at name: String = "id", naming noun: String = Tag.noun) throws -> TypedID<
        Tag
    > {
        assert(DescribedOperation.current?.operation.pathParameters.contains { $0.name == name } ?? true, "{\(name)} is not in the path")
        guard let raw = get(name), let id = TypedID<Tag>(raw) else { throw CommonError.noSuch(noun: noun, id: get(name) ?? "") }
        return id
    }

    /// The `{type}` of a reported subject, one this module holds (`SubjectType.owner`); any other is
    /// a 404, as for a subject that does not exist.
    public func subjectType(heldBy module: ServiceModule) throws -> SubjectType {
        guard let raw = get("type"), let type = SubjectType(rawValue: raw), type.owner == module else {
            throw CommonError.notFound("No subject of type \(get("type") ?? "") here.")
        }
        return type
    }

    /// A whole number in the path (`{number}`), held to the schema its description gives it; a 422
    /// naming the parameter otherwise.
    public func integer(at name: String) throws -> Int {
        let schema = DescribedOperation.current?.operation.pathParameters.first { $0.name == name }?.schema ?? .integer
        guard let raw = get(name), let value = Int(raw) else { throw CommonError.invalid(name, "must be an integer") }
        try FieldRules.require(SchemaValidator(components: [:]).problems(in: .integer(Int64(value)), against: schema, at: name))
        return value
    }
}
