import Contracts
import HuddleEffects
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import ServerContracts
import ServiceKitTesting
import Testing

@testable import ServiceFeatures
@testable import ServiceHTTP
@testable import ServiceKit
@testable import ServiceStore

@Suite("Internal calls")
struct InternalClientTests {
    @Test("a call takes the configured time unless its caller sets its own")
    func configuredTimeout() async throws {
        try await TestStack.with([], config: ["internal.timeout.ms": "1234"]) { stack in
            let dependencies = stack.runner.dependencies
            #expect(dependencies.internalTimeout == .milliseconds(1234))
            #expect(InternalClient(.chat, dependencies: dependencies).timeout == .milliseconds(1234))
            #expect(InternalClient(.chat, dependencies: dependencies, timeout: .seconds(7)).timeout == .seconds(7))
        }
    }

    @Test(
        "a burst of calls to one module is answered whole, however many are in flight at once, when each takes longer than connecting may"
    )
    func burstToOneModule() async throws {
        // Each answer takes 300 ms and a connection may be waited for 100 ms: a call queued behind
        // the others for a connection, rather than given one of its own, would be refused a 503.
        let inFlight = NIOLockedValueBox((now: 0, most: 0))
        let router = Router(context: HuddleRequestContext.self)
        router.get(RouterPath(BettingAPI.Internal.ledgerCheck.operation.path.text)) { _, _ -> Response in
            inFlight.withLockedValue {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            defer { inFlight.withLockedValue { $0.now -= 1 } }
            try await Task.sleep(for: .milliseconds(300))
            return Response(status: .notFound)
        }
        let burst = 24
        try await withServerOnPort0({ onListening in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) }, logger: Logger(label: "slow-betting"))
        }) { url in
            try await TestStack.with([], config: ["internal.connect.ms": "100"], directory: [.betting: url]) { stack in
                var dependencies = stack.runner.dependencies
                dependencies.credential = dependencies.internalKeys.credential(of: .games, now: dependencies.effects.now)
                let client = InternalClient(.betting, dependencies: dependencies, timeout: .seconds(10))
                let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for _ in 0..<burst { group.addTask { try await client.call(BettingAPI.Internal.ledgerCheck) == nil } }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                #expect(answered == burst)
                #expect(inFlight.withLockedValue { $0.most } > 8, "the calls were answered one batch after another")
            }
        }
    }
}
