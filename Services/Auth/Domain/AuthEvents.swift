import Contracts
import SQLKit
import ServerContracts

/// The events auth takes from other modules: a moderator's suspension or ban, which `Suspensions` keeps.
enum AuthEvents {
    static let handlers = EventHandlers<Suspensions.Step> { on in
        on.on(ModerationEvent.caseDecided) { decided, _ in { suspensions, sql in try await suspensions.apply(decided, on: sql) } }
    }
}
