import Foundation
import Logging
import NIOCore
import NIOPosix
public import ServiceLifecycle

/// Runs a server that is not a Huddle module (a stub provider, a fake upstream) on port 0 for the
/// length of `body`, and always shuts it down. `makeServer` gets the callback to report its port.
public func withServerOnPort0<T>(
    _ makeServer: (_ onListening: @escaping @Sendable (Int) async -> Void) async throws -> any Service,
    body: (_ url: String) async throws -> T
) async throws -> T {
    let (ports, portInput) = AsyncStream<Int>.makeStream()
    let group = ServiceGroup(services: [try await makeServer { portInput.yield($0) }], logger: Logger(label: "test-server"))
    let task = Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    let url = "http://127.0.0.1:\(await iterator.next() ?? 0)"
    do {
        let result = try await body(url)
        await group.triggerGracefulShutdown()
        _ = try? await task.value
        return result
    } catch {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
        throw error
    }
}

/// A loopback port nothing listens on now, for a listener whose port a test must know in advance
/// (one that does not announce the port it got).
public func freeLoopbackPort() async throws -> Int {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
    let port = channel.localAddress?.port ?? 0
    try await channel.close()
    return port
}
