import Contracts
import Foundation
import HuddleEffects
import NIOHTTP1
import ServiceKitTesting
import Testing

@testable import Gateway

/// Whose address a request is charged to: the peer's, unless the peer is a proxy the gateway trusts.
@Suite("Trusted proxies")
struct TrustedProxiesTests {
    @Test("a trusted proxy's X-Forwarded-For or Forwarded names the client; anyone else's headers are the peer's word only")
    func clientAddress() throws {
        let proxies = try #require(TrustedProxies("10.0.0.0/8, fd00::/8, 192.0.2.7"))
        #expect(proxies.contains("10.1.2.3") && proxies.contains("fd00::1") && proxies.contains("192.0.2.7"))
        #expect(!proxies.contains("192.0.2.8") && !proxies.contains("11.0.0.1") && !proxies.contains("not an address"))
        // Behind two trusted proxies: the rightmost address that is not one of them.
        let behind = proxies.client(peer: "10.0.0.5", forwardedFor: "203.0.113.9, 198.51.100.4, 10.9.9.9", forwarded: nil)
        #expect(behind.address == "198.51.100.4" && behind.forwardedFor == "203.0.113.9, 198.51.100.4")
        let rfc = proxies.client(peer: "fd00::2", forwardedFor: nil, forwarded: #"for=192.0.2.60;proto=http, for="[2001:db8::1]:4711""#)
        #expect(rfc.address == "2001:db8::1")
        // A client that is not a trusted proxy cannot say who it is.
        let direct = proxies.client(peer: "198.51.100.4", forwardedFor: "1.2.3.4", forwarded: nil)
        #expect(direct.address == "198.51.100.4" && direct.forwardedFor == "1.2.3.4, 198.51.100.4")
        #expect(TrustedProxies("10.0.0.0/33") == nil && TrustedProxies("ten/8") == nil && TrustedProxies("") == TrustedProxies.none)
    }

    @Test(
        "behind a trusted proxy, each client has its own rate-limit bucket and auth sees its address; untrusted, the header is not believed"
    )
    func limitsPerClient() async throws {
        // The buckets refill by the gateway's clock, held still here: three requests on a loaded machine may
        // take longer than the second that would refill one.
        let clock = SettableClock(Date())
        let still = Effects(now: { clock.now })
        try await FakeUpstream.with { upstream in
            let config = ["gateway.proxies.trusted": "127.0.0.1/32", "gateway.ratelimit.rate": "1", "gateway.ratelimit.burst": "2"]
            try await GatewayTests.withGateway(catalog: upstream.url, config: config, effects: still) { _, stack in
                let gateway = TestClient(baseURL: stack.url(.gateway))
                func statuses(as client: String) async throws -> [Int] {
                    var statuses: [Int] = []
                    for _ in 0..<3 {
                        statuses.append(try await gateway.raw(.GET, "/v1/teams/echo", headers: ["X-Forwarded-For": client]).status)
                    }
                    return statuses
                }
                // Each client behind the proxy (this test, on 127.0.0.1) has a bucket of two.
                #expect(try await statuses(as: "203.0.113.1").filter { $0 == 429 }.count == 1)
                #expect(try await statuses(as: "203.0.113.2").filter { $0 == 429 }.count == 1)
                let echoed = try await gateway.raw(.GET, "/v1/teams/echo", headers: ["X-Forwarded-For": "203.0.113.3"])
                // The module (auth, for its throttling) reads the last entry: the client, not the proxy.
                #expect(echoed.text.contains(#""203.0.113.3""#), "\(echoed.text)")
            }
            try await GatewayTests.withGateway(
                catalog: upstream.url, config: ["gateway.ratelimit.rate": "1", "gateway.ratelimit.burst": "2"], effects: still
            ) {
                _, stack in
                let gateway = TestClient(baseURL: stack.url(.gateway))
                var statuses: [Int] = []
                for index in 0..<3 {
                    statuses.append(
                        try await gateway.raw(.GET, "/v1/teams/echo", headers: ["X-Forwarded-For": "203.0.113.\(index)"]).status)
                }
                #expect(statuses.filter { $0 == 429 }.count == 1, "one bucket for the peer, whatever it claims: \(statuses)")
            }
        }
    }
}
