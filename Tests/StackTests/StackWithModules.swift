import Configuration
import Contracts
import HuddleModules
import Logging
import ModuleLauncher
import ServiceHTTP
import ServiceKitTesting

extension StackTests {
    /// Every module on port 0 on SQLite, as `withStack` starts them, with the stack itself (each module's
    /// own address) and every line its modules log at warning or above.
    static func withModules(body: (EmbeddedStack, LogRecorder) async throws -> Void) async throws {
        let made = try await TestStore.sqlite.freshDatabases(for: HuddleModules.available, besides: [:])
        let settings = StackTests.settings(config: made)
        let recorder = LogRecorder()
        let stack = try await EmbeddedStack.start(
            modules: HuddleModules.available, reader: ConfigReader(provider: EnvironmentVariablesProvider.settings(settings)),
            internalKeys: TestStack.internalKeys, logger: recorder.logger(label: "stack-test", level: .warning),
            startupTimeout: TestStack.startupPatience)
        do {
            try await body(stack, recorder)
            try await stopping(stack.runner.dependencies.running) { try await stack.stop() }
            await TestStore.dropDatabases(made.values)
        } catch {
            await stopping(stack.runner.dependencies.running) { try? await stack.stop() }
            await TestStore.dropDatabases(made.values)
            throw error
        }
    }
}
