import Configuration
import Contracts
import Foundation
import HuddleModules
import Logging
import ModuleLauncher
import NIOHTTP1
import ServerContracts
import ServiceClients
import ServiceHTTP
import ServiceKitTesting
import Testing

/// Every module's internal operations, reached on the module's own port as anything on the network
/// could: a path spelt so the router still routes it, no credential, another module's credential,
/// events a module does not publish.
@Suite("Internal calls from a hostile neighbour", StackTests.embeddedOnly)
struct InternalCallerTests {
    /// One internal operation of `module`, its path filled with new ids.
    static func internalPath(of module: ServiceModule) -> (APIOperation, String)? {
        guard let operation = API.operations(of: module).first(where: { $0.access == .internalCaller && $0.method == .get }) else {
            return nil
        }
        return (operation, operation.path.filled(operation.pathParameters.map { _ in UUID().uuidString.lowercased() }))
    }

    @Test("no module opens an internal operation to a path spelt another way, and each refusal is logged")
    func spellings() async throws {
        try await StackTests.withModules { stack, recorder in
            for module in HuddleModules.available where module != .gateway {
                let (_, path) = try #require(Self.internalPath(of: module), "\(module) has no internal GET")
                let rest = path.dropFirst("/internal".count)
                // What the router routes as the internal path: these must be refused for want of a credential.
                let routed = ["/" + path, "/internal/" + rest, path + "/", "//" + path.dropFirst()]
                // What it routes nowhere: these must not be answered with anything but a 401 or a 404.
                let unrouted = [
                    "/INTERNAL" + rest, "/%2Finternal" + rest, "/internal%2F" + rest.dropFirst(), "/./" + path.dropFirst(), "/x/.." + path,
                ]
                for spelling in routed + unrouted {
                    let connection = try await RawConnection.open(baseURL: stack.url(of: module))
                    try await connection.send("GET \(spelling) HTTP/1.1\r\nHost: \(module.rawValue)\r\nConnection: close\r\n\r\n")
                    let status = try await poll({ connection.status }, until: { $0 != nil })
                    await connection.close()
                    if routed.contains(spelling) {
                        #expect(status == 401, "\(module.rawValue) GET \(spelling)")
                    } else {
                        #expect(status == 401 || status == 404, "\(module.rawValue) GET \(spelling)")
                    }
                }
                let refusals = recorder.logged.filter {
                    $0.message.hasPrefix("refused an internal call") && $0.metadata["module"] == .string(module.rawValue)
                }
                #expect(refusals.count >= routed.count, "\(module.rawValue) logged \(refusals.count) refusals")
                #expect(refusals.contains { $0.metadata["path"] == .string("/" + path) })
            }
        }
    }

    @Test("a module's credential opens only what the wiring lets that module call, and events only its own")
    func callersByName() async throws {
        try await StackTests.withModules { stack, recorder in
            let callers = TestStack.internalCallers
            let catalog = TestClient(baseURL: stack.url(of: .catalog), internalCallers: callers)
            // Games reads teams from catalog; betting does not.
            #expect(try await catalog.acting(as: .games).call(CatalogAPI.Internal.team, TeamID()).status == 404)
            #expect(try await catalog.acting(as: .betting).call(CatalogAPI.Internal.team, TeamID()).status == 403)
            #expect(recorder.logged.contains { $0.message.contains("betting does not call this operation of catalog") })

            // A token games signed for catalog does not open search, though games may call search's events.
            let forCatalog = try #require(try await callers.acting(as: .games).token(calling: .catalog, at: "/internal/teams/{id}"))
            let replayed = try await TestClient(baseURL: stack.url(of: .search)).raw(
                .GET, "/internal/events/\(UUID())", headers: [Routes.Header.internalToken: forCatalog])
            #expect(replayed.status == 401)
            // Nor does a token whose signature is another module's.
            let parts = forCatalog.split(separator: ".")
            let other = try #require(try await callers.acting(as: .auth).token(calling: .catalog, at: "/internal/teams/{id}"))
            let forged = "\(parts[0]).\(parts[1]).\(other.split(separator: ".")[2])"
            let forgedCall = try await TestClient(baseURL: stack.url(of: .catalog)).raw(
                .GET, "/internal/teams/\(TeamID())", headers: [Routes.Header.internalToken: forged])
            #expect(forgedCall.status == 401)

            // Games may deliver events to search, but not auth's: a forged rename is refused whole.
            let search = TestClient(baseURL: stack.url(of: .search), internalCallers: callers)
            let rename = try AuthEvent.profileChanged.event(
                .init(profile: PublicProfile(id: UserID(), name: "Forged", pictureUrl: nil, sports: [])), aggregateID: UUID().uuidString,
                occurredAt: Date())
            let refused = try await search.acting(as: .games).call(EventsAPI.deliver(to: .search), body: EventBatch(events: [rename]))
            #expect(refused.status == 403)
            #expect(try await search.acting(as: .auth).call(EventsAPI.applied(by: .search), rename.id).status == 404)
            #expect(recorder.logged.contains { $0.message.contains("refused events from games") })
            // From auth, the same event is taken.
            #expect(
                try await search.acting(as: .auth).call(EventsAPI.deliver(to: .search), body: EventBatch(events: [rename])).status == 204)
            #expect(try await search.acting(as: .auth).call(EventsAPI.applied(by: .search), rename.id).status == 200)
        }
    }
}
