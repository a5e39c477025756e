/// The deployable pieces of Huddle. `huddle` runs any set of them in one process (Loki's `-target`);
/// each thin executable runs exactly one. Every endpoint description names the module that answers it.
public enum ServiceModule: String, CaseIterable, Sendable, Codable {
    case gateway, auth, catalog, games, search, betting, chat, notify, purchases, moderation, media
}
extension ServiceModule: WireEnum {}
