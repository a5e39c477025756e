public import Contracts
import Hummingbird
import Logging
public import NIOCore

extension ServiceDependencies {
    /// The `onServerRunning` hook for a module's `Application`: reports the port it got.
    public func announce(_ module: ServiceModule) -> @Sendable (any Channel) async -> Void {
        { channel in
            if let port = channel.localAddress?.port { await onListening(module, port) }
        }
    }
}
