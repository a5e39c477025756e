import Foundation
import HuddleEffects
import NIOConcurrencyHelpers

/// The provider calls the stand-in answered, with who made them (their `User-Agent`, which names
/// the instance: `ProviderIdentity`): what a test reads to see that only one replica polls at a
/// time. The newest `capacity` are kept.
final class ProviderRequestLog: Sendable {
    private let capacity: Int
    private let entries = NIOLockedValueBox<[FootballControl.ProviderRequest]>([])

    init(capacity: Int = 50_000) { self.capacity = capacity }

    func record(_ resource: String, client: String, at: Date = Effects.system.now()) {
        entries.withLockedValue { entries in
            entries.append(.init(resource: resource, client: client, at: at))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
        }
    }

    var all: [FootballControl.ProviderRequest] { entries.withLockedValue { $0 } }
}
