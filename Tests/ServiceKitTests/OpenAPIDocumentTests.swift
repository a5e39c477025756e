import Contracts
import Foundation
import Gateway
import ServiceKit
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
        #expect(schemas["StartRoundRequest"]?.required == ["courseId", "players"])
        #expect(Set(schemas["RegisterRequest"]?.required ?? []) == ["email", "password", "name"])
        let game = try #require(schemas["UpdateGameRequest"])
        #expect(game.required == nil)
        #expect(game.properties?["startsAt"]?.type == ["string", "null"])
        #expect(schemas["Sport"]?.enum == Sport.allCases.map(\.rawValue))
        #expect(schemas["TeamPage"]?.properties?["items"]?.items?.ref == "#/components/schemas/Team")
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
