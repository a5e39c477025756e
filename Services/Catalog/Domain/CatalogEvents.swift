import Contracts
import SQLKit
import ServerContracts
import ServiceFeatures

/// What catalog takes from other services' events: purchases' entitlements, for the gates, and
/// auth's account deletions.
struct CatalogEvents: Sendable {
    let gatekeeper: Gatekeeper
    let erasure: AccountErasure

    typealias Step = @Sendable (CatalogEvents, any SQLDatabase) async throws -> Void

    static let handlers = EventHandlers<Step> { on in
        on.on(PurchasesEvent.entitlementsChanged) { change, _ in { events, sql in try await events.gatekeeper.apply(change, on: sql) } }
        on.on(AuthEvent.accountDeleted) { deleted, _ in { events, sql in try await events.erasure.erase(deleted.userId, on: sql) } }
        on.on(ModerationEvent.subjectHidden) { hidden, _ in
            { _, sql in try await HiddenSubjects().apply(hidden, keeping: [.team, .league], on: sql) }
        }
    }
}
