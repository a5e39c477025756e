import Contracts
import Foundation
import NIOHTTP1
import ServiceKitTesting
import Testing

@testable import Gateway

/// The gateway in front of several instances of a module.
@Suite("Balancing over instances")
struct BalancingTests {
    @Test("requests spread over two instances of a module")
    func spreads() async throws {
        try await FakeUpstream.with { first in
            try await FakeUpstream.with { second in
                try await GatewayTests.withGateway(catalog: "\(first.url),\(second.url)") { gateway, _ in
                    for _ in 0..<40 {
                        let status = try await gateway.raw(.GET, "/v1/teams/echo").status
                        #expect(status == 200)
                    }
                    #expect(first.echoed + second.echoed == 40)
                    #expect(first.echoed >= 8 && second.echoed >= 8, "\(first.echoed) and \(second.echoed)")
                }
            }
        }
    }

    @Test("an instance that refuses connections costs no request: each goes to another, and it is left out")
    func unreachableInstanceIsLeftOut() async throws {
        try await FakeUpstream.with { live in
            let dead = "http://127.0.0.1:1"
            try await GatewayTests.withGateway(catalog: "\(dead),\(live.url)") { gateway, _ in
                for _ in 0..<30 {
                    let status = try await gateway.raw(.POST, "/v1/teams/echo", rawBody: Data(count: 10)).status
                    #expect(status == 200)
                }
                #expect(live.echoed == 30)
            }
        }
    }

    @Test("with no instance reachable the answer is a prompt 503")
    func noneReachable() async throws {
        try await GatewayTests.withGateway(catalog: "http://127.0.0.1:1,http://127.0.0.1:2") { gateway, _ in
            let answer = try await gateway.raw(.GET, "/v1/teams/echo")
            #expect(answer.status == 503 && answer.problem?.code == "UPSTREAM_UNAVAILABLE")
        }
    }

    // MARK: The rules, directly

    struct Sequence: RandomNumberGenerator {
        var values: [UInt64]
        mutating func next() -> UInt64 { values.isEmpty ? 0 : values.removeFirst() }
    }

    @Test("of two instances picked, the one with fewer requests outstanding gets the next")
    func fewerOutstandingWins() {
        let rules = BalancingRules()
        var states: [String: BalancingRules.Instance] = [:]
        BalancingRules.sync(&states, with: ["a", "b"])
        states["a"]?.outstanding = 3
        var random = SystemRandomNumberGenerator()
        for _ in 0..<20 { #expect(rules.pick(from: states, at: 0, excluding: [], using: &random) == "b") }
        #expect(rules.pick(from: states, at: 0, excluding: ["b"], using: &random) == "a")
        #expect(rules.pick(from: states, at: 0, excluding: ["a", "b"], using: &random) == nil)
    }

    @Test("two failures in a row leave an instance out for the ejection time; one success forgives")
    func ejection() {
        let rules = BalancingRules(ejectAfter: 2, ejection: 10)
        var instance = BalancingRules.Instance(outstanding: 1)
        rules.finished(&instance, reached: false, at: 100)
        #expect(instance.leftOutUntil == 0 && instance.outstanding == 0)
        instance.outstanding = 1
        rules.finished(&instance, reached: false, at: 101)
        #expect(instance.leftOutUntil == 111)
        var states = ["a": instance, "b": BalancingRules.Instance()]
        var random = SystemRandomNumberGenerator()
        #expect(rules.pick(from: states, at: 105, excluding: [], using: &random) == "b")
        // Every instance out: the one whose time is nearly up is tried, so a module that is back is found.
        states["b"]?.leftOutUntil = 120
        #expect(rules.pick(from: states, at: 105, excluding: [], using: &random) == "a")
        rules.finished(&states["a"]!, reached: true, at: 106)
        #expect(states["a"] == BalancingRules.Instance())
    }

    @Test("instances that appear are taken in, instances that went are forgotten")
    func sync() {
        var states = ["a": BalancingRules.Instance(outstanding: 2), "gone": BalancingRules.Instance()]
        BalancingRules.sync(&states, with: ["a", "new"])
        #expect(states == ["a": BalancingRules.Instance(outstanding: 2), "new": BalancingRules.Instance()])
        // The same instances again, in any order: each keeps its count.
        BalancingRules.sync(&states, with: ["new", "a"])
        #expect(states == ["a": BalancingRules.Instance(outstanding: 2), "new": BalancingRules.Instance()])
    }

    @Test("a module's one instance is tried even while left out, and nothing once it was tried")
    func oneInstance() {
        let rules = BalancingRules()
        var random = SystemRandomNumberGenerator()
        let states = ["a": BalancingRules.Instance(failuresInARow: 2, leftOutUntil: 200)]
        #expect(rules.pick(from: states, at: 100, excluding: [], using: &random) == "a")
        #expect(rules.pick(from: states, at: 100, excluding: ["a"], using: &random) == nil)
    }

    @Test("a host name resolves to its addresses; an IP literal stays as written")
    func resolution() async {
        #expect(await InstanceResolver.resolve(["http://127.0.0.1:8080"]) == ["http://127.0.0.1:8080"])
        #expect(
            await InstanceResolver.resolve(["http://localhost:8080"]).contains {
                $0 == "http://127.0.0.1:8080" || $0 == "http://[::1]:8080"
            })
        #expect(InstanceResolver.isLiteral("[::1]") && !InstanceResolver.isLiteral("auth-instances"))
    }
}
