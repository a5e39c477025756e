import Contracts
import Foundation
import ServerContracts
import ServiceHTTP
import ServiceStore

/// How far a deleted account's erasure has got: each personal-data holder is asked whether it has
/// applied the deletion's event (its inbox keeps every event it applied). Administrators only.
struct DeletionTracking: Sendable {
    let database: Database
    let store: any DeletionStore
    let dependencies: ServiceDependencies

    func progress(of user: UserID, askedBy identity: Identity) async throws -> DeletionProgress {
        guard identity.isAdministrator else { throw CommonError.forbidden("Only administrators follow account deletions.") }
        try identity.requireSecondFactorForStaffWork()
        guard let (event, deletedAt) = try await database.read({ sql in try await store.deletion(of: user, on: sql) }) else {
            throw CommonError.notFound("No deleted account with id \(user).")
        }
        let services = await withTaskGroup(of: DeletionProgress.Service.self) { group in
            for module in Wiring.personalDataHolders {
                group.addTask {
                    let client = InternalClient(module, dependencies: dependencies)
                    do {
                        guard let applied = try await client.call(EventsAPI.applied(by: module), path: [event]) else {
                            return .init(module: module, state: .pending)
                        }
                        return .init(module: module, state: .erased, erasedAt: applied.appliedAt)
                    } catch {
                        return .init(module: module, state: .unreachable)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        return DeletionProgress(userId: user, deletedAt: deletedAt, services: services.sorted { $0.module.rawValue < $1.module.rawValue })
    }
}
