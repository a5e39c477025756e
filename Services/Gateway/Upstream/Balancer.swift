import Contracts
import Foundation
import NIOConcurrencyHelpers
import ServiceHTTP

/// Which instance of a module a request goes to. Of two instances picked at random among those not
/// left out, the one with fewer requests outstanding ("power of two choices", Envoy's and Linkerd's
/// default: nearly as even as asking every instance, at the cost of two). An instance that cannot be
/// reached `ejectAfter` times in a row is left out for `ejection`; when every instance is left out,
/// the one whose time is nearly up is tried, so a module that comes back is found.
struct BalancingRules: Sendable {
    var ejectAfter = 2
    var ejection: TimeInterval = 10

    struct Instance: Equatable, Sendable {
        var outstanding = 0
        var failuresInARow = 0
        var leftOutUntil: TimeInterval = 0
    }

    /// The instances known now: new ones start afresh, gone ones are forgotten.
    static func sync(_ states: inout [String: Instance], with bases: [String]) {
        // Nearly always the same instances as at the last request: then nothing is made anew (the set
        // and filtered copy below, on every request, were 0.7 % of the gateway's CPU, perf).
        if states.count == bases.count, bases.allSatisfy({ states[$0] != nil }) { return }
        let known = Set(bases)
        states = states.filter { known.contains($0.key) }
        for base in bases where states[base] == nil { states[base] = Instance() }
    }

    /// The instance to send to, other than those in `tried`; nil when there is none left.
    func pick(
        from states: [String: Instance], at now: TimeInterval, excluding tried: Set<String>,
        using random: inout some RandomNumberGenerator
    ) -> String? {
        // One instance, left out or not, is the only one to try.
        if states.count == 1, let only = states.first?.key { return tried.contains(only) ? nil : only }
        let candidates = states.filter { !tried.contains($0.key) }
        guard !candidates.isEmpty else { return nil }
        let live = candidates.filter { $0.value.leftOutUntil <= now }
        guard !live.isEmpty else { return candidates.min { $0.value.leftOutUntil < $1.value.leftOutUntil }?.key }
        let keys = live.keys.sorted()
        guard keys.count > 1 else { return keys[0] }
        let first = Int.random(in: 0..<keys.count, using: &random)
        var second = Int.random(in: 0..<(keys.count - 1), using: &random)
        if second >= first { second += 1 }
        let (a, b) = (keys[first], keys[second])
        return (live[a]?.outstanding ?? 0) <= (live[b]?.outstanding ?? 0) ? a : b
    }

    /// After an exchange with `instance`: `reached` false when no connection could be made.
    func finished(_ instance: inout Instance, reached: Bool, at now: TimeInterval) {
        instance.outstanding = max(0, instance.outstanding - 1)
        if reached {
            instance.failuresInARow = 0
            instance.leftOutUntil = 0
        } else {
            instance.failuresInARow += 1
            if instance.failuresInARow >= ejectAfter { instance.leftOutUntil = now + ejection }
        }
    }
}

/// The gateway's balancer over the instances the directory lists for each module.
final class Balancer: Sendable {
    let directory: ServiceDirectory
    let rules: BalancingRules
    /// The gateway's clock, which times an instance left out.
    let clock: @Sendable () -> Date
    private let states = NIOLockedValueBox<[ServiceModule: [String: BalancingRules.Instance]]>([:])

    init(directory: ServiceDirectory, rules: BalancingRules = BalancingRules(), now: @escaping @Sendable () -> Date) {
        self.directory = directory
        clock = now
        self.rules = rules
    }

    /// Takes an instance of `module` for one exchange (counted outstanding until `finished`).
    func take(_ module: ServiceModule, excluding tried: Set<String> = []) -> String? {
        let bases = directory.instances(of: module)
        let now = clock().timeIntervalSince1970
        return states.withLockedValue { all in
            var states = all[module] ?? [:]
            BalancingRules.sync(&states, with: bases)
            var random = SystemRandomNumberGenerator()
            let chosen = rules.pick(from: states, at: now, excluding: tried, using: &random)
            if let chosen { states[chosen]?.outstanding += 1 }
            all[module] = states
            return chosen
        }
    }

    func finished(_ module: ServiceModule, _ base: String, reached: Bool) {
        let now = clock().timeIntervalSince1970
        states.withLockedValue { all in
            guard var instance = all[module]?[base] else { return }
            rules.finished(&instance, reached: reached, at: now)
            all[module]?[base] = instance
        }
    }

    /// How many instances of `module` are known; a request is tried on at most this many (and at most three).
    func attempts(for module: ServiceModule) -> Int { min(3, max(1, directory.instances(of: module).count)) }
}
