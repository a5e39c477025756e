public import Contracts
import ServerContracts

/// Who talks to whom, declared once. `huddle` wires its modules from it, a module started on its own
/// refuses to start without the addresses it needs, and the deployment files (docker-compose.yml,
/// deploy/postgres/init.sql) are checked against it by `DeploymentCheck`. Adding a consumer or a
/// call is one line here.
public enum Wiring {
    /// Publisher → the modules that consume its events through `/internal/events`
    /// (`<publisher>.events.subscribers`).
    public static let eventConsumers: [ServiceModule: [ServiceModule]] = [
        .auth: [.search, .chat, .notify, .purchases, .games, .catalog, .betting, .moderation, .media],
        .catalog: [.games, .search, .chat, .notify],
        .games: [.search, .betting, .chat, .notify],
        .purchases: [.catalog, .games, .search],
        .moderation: [.notify, .chat, .auth, .catalog, .games, .search],
        .betting: [.notify, .chat],
        .chat: [.media, .notify],
    ]

    /// Module → the modules it calls over internal HTTP (`<callee>.url`). Every module that checks
    /// tokens calls auth for its signing keys and revoked sessions. The gateway is not here: it
    /// calls the modules of `gateway.modules` (in a deployment, `publicOwners`) and answers 503 for
    /// any that is missing.
    public static let calls: [ServiceModule: [ServiceModule]] = [
        .auth: personalDataHolders,
        .catalog: [.auth, .media],
        .games: [.auth, .catalog],
        .search: [.auth, .catalog, .games],
        .betting: [.auth],
        .chat: [.auth, .media],
        .notify: [.auth, .chat],
        .purchases: [.auth],
        .moderation: [.auth, .catalog, .games, .chat],
        .media: [.auth, .chat],
    ]

    /// The modules that may call `module`'s internal operation at `route` (as the router names it):
    /// its event routes only from the modules that publish to it, its dead letters only with its own
    /// key (its operator's), every other one only from the modules that call it.
    public static func callers(of module: ServiceModule, at route: String) -> Set<ServiceModule> {
        if EventsAPI.publisherOperations(of: module).contains(where: { $0.path.text == route }) { return [module] }
        let eventRoutes = [EventsAPI.deliver(to: module).operation.path.text, EventsAPI.applied(by: module).operation.path.text]
        if eventRoutes.contains(route) {
            return Set(eventConsumers.filter { $0.value.contains(module) }.keys)
        }
        return Set(calls.filter { $0.value.contains(module) }.keys)
    }

    /// Whether `module` calls another's internal operations, its events' deliveries included.
    public static func makesInternalCalls(_ module: ServiceModule) -> Bool {
        !(calls[module] ?? []).isEmpty || eventConsumers[module] != nil
    }

    /// The modules that hold players' personal data: each erases a deleted account's (consuming
    /// `auth.user.deleted`) and answers its part of a player's export; auth asks them both.
    public static var personalDataHolders: [ServiceModule] { eventConsumers[.auth] ?? [] }

    /// Modules with a database of their own (`<module>.db.url`).
    public static let stores: [ServiceModule] = [
        .auth, .catalog, .games, .search, .betting, .chat, .notify, .purchases, .moderation, .media,
    ]

    /// The modules whose routes a deployed gateway serves: the owners of the public operations.
    public static var publicOwners: [ServiceModule] {
        let owners = Set(API.publicOperations.map(\.owner))
        return ServiceModule.allCases.filter { owners.contains($0) && $0 != .gateway }
    }

    /// `<module>.events.subscribers` for modules that run together: each publisher delivers to the
    /// consumers among them.
    public static func subscriberSettings(for modules: [ServiceModule]) -> [String: String] {
        eventConsumers.reduce(into: [:]) { settings, entry in
            let running = entry.value.filter(modules.contains)
            if modules.contains(entry.key), !running.isEmpty {
                settings["\(entry.key.rawValue).events.subscribers"] = running.map(\.rawValue).joined(separator: ",")
            }
        }
    }

    /// For each of `modules`, the modules it calls that are neither among them nor in `directory`:
    /// addresses that must be configured before it can work.
    public static func unreachableCallees(of modules: [ServiceModule], directory: ServiceDirectory) -> [(ServiceModule, ServiceModule)] {
        modules.flatMap { caller in
            (calls[caller] ?? []).filter { !modules.contains($0) && directory.url(of: $0) == nil }.map { (caller, $0) }
        }
    }
}
