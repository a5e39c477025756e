import Contracts
import Foundation
import NIOHTTP1
import ServerContracts
import ServiceHTTP
import ServiceKitTesting
import Testing

/// What careless clients send, generated from the document itself: every public operation is sent
/// the edge values its schema names (empty and over-full arrays, bounds and one past them, nulls,
/// missing fields, wrong types, unknown query parameters), through the gateway, and must answer
/// each with a 4xx or a success, never a 5xx.
@Suite("Edge values through the gateway", .serialized, StackTests.embeddedOnly)
struct EdgeValueTests {
    static let config = ["gateway.ratelimit.rate": "1000000", "gateway.ratelimit.burst": "1000000"]

    static var operations: [APIOperation] {
        API.publicOperations.filter { !$0.isWebSocket }
    }

    @Test("bodies at and past their schema's edges are answered with a 4xx, never a 5xx", arguments: TestStore.all)
    func bodies(store: TestStore) async throws {
        try await StackTests.withStack(store: store, config: Self.config) { gateway in
            let admin = try await StackTests.administrator(gateway)
            let token = admin.accessToken
            let ids = try await OwnedThings.make(through: gateway, as: admin)
            var failures: [String] = []
            var sent = 0, pastTheLookup = 0
            for operation in Self.operations {
                guard let body = operation.body else { continue }
                for variant in try BodyEdges(body.type).variants {
                    let response = try await gateway.raw(
                        operation.method.clientMethod, Self.path(operation, ids: ids), rawBody: try HuddleJSON.encoder.encode(variant.body),
                        token: token, headers: Self.headers(operation))
                    sent += 1
                    if !operation.pathParameters.isEmpty, response.status != 404 { pastTheLookup += 1 }
                    if !Self.acceptable(response, for: operation) {
                        failures.append("\(operation.name) \(variant.name): \(response.status) \(response.text)")
                    }
                }
            }
            #expect(sent > 300)
            // Requests on things the caller owns get past finding them, to the rules and the store.
            #expect(pastTheLookup > 150, "\(pastTheLookup)")
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        }
    }

    @Test("query values at and past their edges are answered with a 4xx, never a 5xx; unknown parameters are named")
    func queries() async throws {
        try await StackTests.withStack(store: .sqlite, config: Self.config) { gateway in
            let token = try await StackTests.administrator(gateway).accessToken
            var failures: [String] = []
            // The gateway's own routes (health, metrics, the document) take no parameters and read none.
            for operation in Self.operations where operation.method == .get && operation.owner != .gateway {
                let unknown = try await gateway.raw(.GET, Self.path(operation) + "?zzz=1", token: token)
                if unknown.status != 422 || unknown.problem?.errors?.contains(where: { $0.field == "zzz" }) != true {
                    failures.append("\(operation.name) ?zzz=1: \(unknown.status) \(unknown.text)")
                }
                for parameter in operation.query {
                    for value in QueryEdges.values(for: parameter.schema) {
                        let query = "?\(parameter.name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value)"
                        let response = try await gateway.raw(.GET, Self.path(operation) + query, token: token)
                        if !Self.acceptable(response, for: operation) {
                            failures.append("\(operation.name)\(query): \(response.status) \(response.text)")
                        }
                    }
                }
            }
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        }
    }

    /// A 4xx or a success; a 5xx only when the operation documents it (a provider that is down,
    /// as every outside provider is in this stack, is a 503 it names).
    static func acceptable(_ response: TestClient.Response, for operation: APIOperation) -> Bool {
        guard response.status >= 500 else { return true }
        return operation.allProblems.contains { $0.status == response.status && $0.code == response.problem?.code }
    }

    /// The operation's path with each parameter filled: the id of the caller's own thing of that kind
    /// when `ids` has one (so the edge values reach the rules and the store behind the lookup), else a
    /// value of the parameter's schema (an unknown id for a UUID).
    static func path(_ operation: APIOperation, ids: OwnedThings? = nil) -> String {
        operation.path.filled(
            operation.pathParameters.map { parameter in
                if let id = ids?.id(for: parameter.name, in: operation.path.text) { return id }
                return switch parameter.schema.type?.first {
                case "integer": String(Int(parameter.schema.minimum ?? 1))
                case _ where parameter.schema.enum != nil: parameter.schema.enum?.first ?? "x"
                case _ where parameter.schema.format == "uuid": UUID().uuidString.lowercased()
                default: "edge-value"
                }
            })
    }

    static func headers(_ operation: APIOperation) -> [String: String] {
        var headers = ["Content-Type": "application/json"]
        if operation.acceptsIdempotencyKey { headers[Routes.Header.idempotencyKey] = UUID().uuidString }
        return headers
    }
}

/// Bodies of one request type at its schema's edges, each a change of one field of a sample body.
struct BodyEdges {
    struct Variant {
        let name: String
        let body: JSONValue
    }

    let variants: [Variant]

    init(_ type: any Decodable.Type) throws {
        let reader = SchemaReader()
        let root = try reader.schema(for: type)
        guard let sample = try reader.sample(of: type) as? any Encodable else {
            variants = []
            return
        }
        let base = try HuddleJSON.decoder.decode(JSONValue.self, from: try HuddleJSON.encoder.encode(sample))
        let schema = Self.resolve(root, in: reader.components)
        var variants = [
            Variant(name: "an empty object", body: .object([:])), Variant(name: "an array", body: .array([])),
            Variant(name: "a string", body: .string("x")), Variant(name: "the sample", body: base),
        ]
        guard case .object(let fields) = base else {
            self.variants = variants
            return
        }
        for (name, property) in (schema.properties ?? [:]).sorted(by: { $0.key < $1.key }) {
            let field = Self.resolve(property, in: reader.components)
            var without = fields
            without[name] = nil
            variants.append(Variant(name: "without \(name)", body: .object(without)))
            for (label, value) in Self.edges(of: field, sample: fields[name], components: reader.components) {
                var changed = fields
                changed[name] = value
                variants.append(Variant(name: "\(name) = \(label)", body: .object(changed)))
            }
        }
        self.variants = variants
    }

    static func resolve(_ schema: JSONSchema, in components: [String: JSONSchema]) -> JSONSchema {
        if let ref = schema.ref, let target = components[String(ref.dropFirst("#/components/schemas/".count))] {
            return resolve(target, in: components)
        }
        if let choices = schema.oneOf, choices.count == 2, choices[1] == .type("null") { return resolve(choices[0], in: components) }
        return schema
    }

    /// Values at and just past what `schema` allows, and of other types.
    static func edges(of schema: JSONSchema, sample: JSONValue?, components: [String: JSONSchema]) -> [(String, JSONValue)] {
        var edges: [(String, JSONValue)] = [("null", .null), ("an object", .object([:])), ("true", .bool(true))]
        switch schema.type?.first(where: { $0 != "null" }) {
        case "integer", "number":
            let numbers = [schema.minimum, schema.maximum, schema.exclusiveMinimum].compactMap { $0 }
            for bound in numbers {
                edges += [("\(bound)", .number(bound)), ("\(bound - 1)", .number(bound - 1)), ("\(bound + 1)", .number(bound + 1))]
            }
            edges += [("0", .integer(0)), ("-1", .integer(-1)), ("2^53 + 1", .integer((1 << 53) + 1)), ("0.5", .number(0.5))]
            edges += [("1e300", .number(1e300)), ("a numeric string", .string("1"))]
        case "string":
            edges += [("an empty string", .string("")), ("a blank string", .string("   ")), ("a number", .integer(1))]
            edges += [("an unknown word", .string("zzz")), ("a NUL", .string("a\u{0}b"))]
            if let high = schema.maxLength { edges.append(("\(high + 1) characters", .string(String(repeating: "x", count: high + 1)))) }
        case "array":
            edges += [("an empty array", .array([])), ("a string", .string("x"))]
            if case .array(let items) = sample, let item = items.first ?? Self.item(of: schema, components: components) {
                edges.append(("one item", .array([item])))
                edges.append(("the same item twice", .array([item, item])))
                if let high = schema.maxItems { edges.append(("\(high + 1) items", .array(Array(repeating: item, count: high + 1)))) }
            }
        case "object":
            edges += [("an array", .array([])), ("a string", .string("x"))]
        default:
            break
        }
        return edges
    }

    /// A sample item of an array schema, when its items are an object: every field a string.
    static func item(of schema: JSONSchema, components: [String: JSONSchema]) -> JSONValue? {
        guard let items = schema.items else { return nil }
        let object = resolve(items, in: components)
        guard let properties = object.properties else { return .string("x") }
        return .object(properties.mapValues { _ in .string("x") })
    }
}

/// Query values at and past a parameter's edges.
enum QueryEdges {
    static func values(for schema: JSONSchema) -> [String] {
        var values = ["", "zzz", "-1", "0", "1e400", "NaN", "%00"]
        for bound in [schema.minimum, schema.maximum].compactMap({ $0 }) {
            values += [String(bound - 1), String(bound + 1), String(Int64(bound))]
        }
        if let high = schema.maxLength { values.append(String(repeating: "x", count: high + 1)) }
        return values
    }
}

/// Things the signed-in administrator owns, made through the public API, whose ids fill paths.
struct OwnedThings {
    let byPrefix: [String: String]
    let user: String

    static func make(through gateway: TestClient, as session: Session) async throws -> OwnedThings {
        let token = session.accessToken
        let here = Location(lat: 59.437, lng: 24.7536)
        // `value`: a creation that fails says its status and problem, not a decoding error.
        let team = try await gateway.value(
            CatalogAPI.createTeam,
            body: CreateTeamRequest(
                name: "Edge Values", sport: .volleyball, privacy: .public, location: here, ageGroup: .adult, gender: .coed,
                skill: .any), token: token)
        let game = try await gateway.value(
            GamesAPI.createGame,
            body: CreateGameRequest(
                kind: .pickup, startsAt: Date().addingTimeInterval(7 * 86_400), location: here, sport: .volleyball, privacy: .public,
                ageGroup: .adult, gender: .coed, skill: .any, capacity: 6), token: token)
        let holes = (1...3).map {
            Hole(
                number: $0, par: 3, tee: Coordinates(lat: 59.4 + Double($0) * 0.001, lng: 24.7),
                basket: Coordinates(lat: 59.4005 + Double($0) * 0.001, lng: 24.7))
        }
        let course = try await gateway.value(
            CatalogAPI.createCourse, body: CreateCourseRequest(name: "Edge Park", location: here, holes: holes), token: token)
        let round = try await gateway.value(GamesAPI.startRound, body: StartRoundRequest(courseId: course.id), token: token)
        let rooms = try await gateway.value(ChatAPI.rooms, token: token)
        var byPrefix = [
            "/v1/teams/": team.id.description, "/v1/games/": game.id.description, "/v1/courses/": course.id.description,
            "/v1/rounds/": round.id.description,
        ]
        if let global = rooms.items.first(where: { $0.kind == .global }) { byPrefix["/v1/chat/rooms/"] = global.id.description }
        return OwnedThings(byPrefix: byPrefix, user: session.user.id.description)
    }

    /// `{id}` of a path under one of the prefixes, and `{userId}` as the caller.
    func id(for parameter: String, in path: String) -> String? {
        switch parameter {
        case "id": byPrefix.first { path.hasPrefix($0.key + "{id}") }?.value
        case "userId": user
        default: nil
        }
    }
}
