import Contracts
import ServiceClients

/// Moderators' and owners' names, as the console shows them beside cases and the audit trail.
struct PeopleNames: Sendable {
    let auth: AuthClient

    /// From auth's profiles; ids stand in while auth cannot answer.
    func names(of ids: [UserID]) async -> [UserID: String] {
        let profiles = (try? await auth.profiles(Array(Set(ids)))) ?? [:]
        return profiles.mapValues(\.name)
    }

    /// Everyone a case names: the moderators who acted on it and the owners of its subject.
    func named(in item: ModerationCase) async -> [UserID: String] {
        await names(of: (item.actions + item.ownerHistory).map(\.moderatorId) + [item.content.ownerId].compactMap { $0 })
    }
}
