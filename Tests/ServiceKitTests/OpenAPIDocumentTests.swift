import Contracts
import Foundation
import Gateway
import ServerContracts
import ServiceHTTP
import Testing

/// The document is written from the descriptions and the types; these check that what it says is
/// what the server does, at the places where the two once drifted apart.
@Suite("The OpenAPI document")
struct OpenAPIDocumentTests {
    static let document = Result { try OpenAPIDocument.make() }

    @Test("every public operation is in it, once, with its problems")
    func everyOperation() throws {
        let document = try Self.document.get()
        for operation in API.publicOperations {
            let described = document.paths[operation.path.text]?[operation.method.rawValue.lowercased()]
            #expect(described != nil, "\(operation.name)")
            #expect(described?.responses[String(operation.successStatus)] != nil, "\(operation.name)")
            for problem in operation.allProblems {
                #expect(
                    described?.responses[String(problem.status)]?.description.contains(problem.code) == true, "\(operation.name) \(problem)"
                )
            }
        }
        #expect(document.paths.values.map(\.count).reduce(0, +) == API.publicOperations.count)
    }

    @Test("a field the decoder requires is required; an optional one may be absent or null")
    func requiredFollowsTheDecoder() throws {
        let schemas = try Self.document.get().components.schemas
        #expect(schemas["StartRoundRequest"]?.required == ["players"])
        #expect(Set(schemas["RegisterRequest"]?.required ?? []) == ["email", "password", "name"])
        let game = try #require(schemas["UpdateGameRequest"])
        #expect(game.required == nil)
        #expect(game.properties?["startsAt"]?.type == ["string", "null"])
        #expect(schemas["Sport"]?.enum == Sport.allCases.map(\.rawValue))
        #expect(schemas["TeamPage"]?.properties?["items"]?.items?.ref == "#/components/schemas/Team")
    }

    /// swift-openapi-generator drops a property written `oneOf: [$ref, null]`, so an optional named
    /// object is written as the reference, not required; the document may say so only because the
    /// encoders leave such a field out when it is nil, which this holds for every type on the wire.
    @Test("an optional named object or enum is a plain reference, and a nil one is left out of what is sent")
    func optionalReferences() throws {
        let document = try Self.document.get()
        let game = try #require(document.components.schemas["Game"])
        #expect(game.properties?["location"]?.ref == "#/components/schemas/Location")
        #expect(game.required?.contains("location") == false)
        let reader = SchemaReader()
        let schemas = document.components.schemas
        let types = API.publicOperations.flatMap { [$0.body, $0.output].compactMap { $0?.type } }
        var checked = 0
        for type in types {
            // The sample with every optional field taken out, decoded (so those fields are nil) and sent again.
            guard let full = try reader.sample(of: type) as? any Encodable, let whole = try? JSONValue.of(full) else { continue }
            let schema = try reader.schema(for: type)
            let minimal = Self.requiredOnly(whole, schema, schemas)
            guard let value = try? HuddleJSON.decoder.decode(type, from: try HuddleJSON.encoder.encode(minimal)) as? any Encodable
            else { continue }
            checked += 1
            #expect(Self.nullReferences(in: try JSONValue.of(value), schema, schemas).isEmpty, "\(type)")
        }
        #expect(checked > 40)
    }

    private static func resolved(_ schema: JSONSchema, _ schemas: [String: JSONSchema]) -> JSONSchema {
        guard let ref = schema.ref else { return schema }
        return schemas[String(ref.split(separator: "/").last ?? "")] ?? schema
    }

    /// `value` with only the fields its schema requires, at every depth.
    private static func requiredOnly(_ value: JSONValue, _ schema: JSONSchema, _ schemas: [String: JSONSchema]) -> JSONValue {
        let schema = resolved(schema, schemas)
        switch value {
        case .object(let fields) where schema.properties != nil:
            let required = Set(schema.required ?? [])
            return .object(
                fields.filter { required.contains($0.key) }.reduce(into: [:]) { kept, field in
                    kept[field.key] = schema.properties?[field.key].map { requiredOnly(field.value, $0, schemas) } ?? field.value
                })
        case .array(let items):
            return .array(items.map { item in schema.items.map { requiredOnly(item, $0, schemas) } ?? item })
        default:
            return value
        }
    }

    /// The paths in `value` that hold null where the schema names an object or enum.
    private static func nullReferences(in value: JSONValue, _ schema: JSONSchema, _ schemas: [String: JSONSchema], at path: String = "")
        -> [String]
    {
        let schema = resolved(schema, schemas)
        switch value {
        case .object(let fields):
            return fields.flatMap { name, field -> [String] in
                guard let property = schema.properties?[name] else { return [] }
                if field == .null, property.ref != nil { return [path + "." + name] }
                return nullReferences(in: field, property, schemas, at: path + "." + name)
            }
        case .array(let items):
            return items.flatMap { item in schema.items.map { nullReferences(in: item, $0, schemas, at: path + "[]") } ?? [] }
        default:
            return []
        }
    }

    @Test("a live socket's answer names the frames each side sends, and their schemas are in the document")
    func socketFrames() throws {
        let document = try Self.document.get()
        let sockets = API.publicOperations.filter(\.isWebSocket)
        #expect(sockets.count == 3)
        for operation in sockets {
            let said = try #require(document.paths[operation.path.text]?["get"]?.responses["101"]?.description)
            for frame in [operation.output, operation.deviceFrames].compactMap({ $0 }) {
                let name = SchemaReader.componentName(of: frame.type)
                #expect(said.contains("\(name) JSON text frames") && document.components.schemas[name] != nil, "\(operation.name)")
            }
        }
        #expect(API.publicOperations.first { $0.path.text == "/v1/chat/live" }?.deviceFrames?.type == ChatClientFrame.self)
    }

    @Test("constraints declared beside the types reach the schemas")
    func constraints() throws {
        let schemas = try Self.document.get().components.schemas
        #expect(schemas["InviteRequest"]?.properties?["userIds"]?.maxItems == InviteRequest.count.upperBound)
        #expect(schemas["FriendMatchRequest"]?.properties?["facebookIds"]?.maxItems == FriendMatchRequest.maxFacebookIDs)
    }

    @Test("signed-in operations need the bearer token; optional sign-in says so")
    func security() throws {
        let paths = try Self.document.get().paths
        #expect(paths["/v1/users/me"]?["get"]?.security == [["bearer": []]])
        #expect(paths["/v1/news"]?["get"]?.security == [[:], ["bearer": []]])
        #expect(paths["/v1/courses"]?["get"]?.security == nil)
        #expect(paths["/v1/teams"]?["post"]?.parameters?.contains { $0.name == "Idempotency-Key" && $0.in == "header" } == true)
    }

    @Test("the gateway routes every described path to its owner, the most literal pattern first")
    func routeTable() {
        let table = RouteTable.standard
        for operation in API.publicOperations where operation.owner != .gateway {
            let example = operation.path.filled(operation.pathParameters.map { _ in UUID().uuidString.lowercased() })
            #expect(table.module(for: example) == operation.owner, "\(operation.name)")
        }
        #expect(table.module(for: "/v1/users/me/following") == .auth)
        #expect(table.module(for: "/v1/users/\(UUID().uuidString)/stats") == .games)
        #expect(table.module(for: "/v1/teams/x/y/z") == nil)
        #expect(table.module(for: "/v1/betting/wallet") == .betting)
    }
}

extension JSONValue {
    fileprivate static func of(_ value: any Encodable) throws -> JSONValue {
        try HuddleJSON.decoder.decode(JSONValue.self, from: try HuddleJSON.encoder.encode(value))
    }
}
