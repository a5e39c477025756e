public import Contracts
public import ServiceHTTP

extension LiveMessage: VersionedMessage {}
extension MatchChange: VersionedMessage {}

/// A disc golf round's card, changed by its players.
typealias LiveRounds = LiveFeed<RoundID, LiveMessage>
/// A professional match, changed by the provider's feed.
typealias LiveMatches = LiveFeed<MatchID, MatchChange>
