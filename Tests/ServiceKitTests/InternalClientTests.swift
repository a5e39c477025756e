import Contracts
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
}
