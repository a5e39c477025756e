import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import NIOPosix
import NIOWebSocket
import ServiceHTTP

extension UpstreamClient {
    /// Opens `path` on the module at `base` as a live socket for `device`, on the device's event
    /// loop, with `headers` (the device's token, request id, trace); nil when the module cannot be
    /// reached or does not upgrade by `deadline`. The link ends when the device's connection does,
    /// whether or not its own upgrade completed.
    func openSocket(
        path: String, headers: HTTPFields, base: String, for device: any Channel, limits: SocketRelay.Limits, deadline: NIODeadline
    ) async -> NIOLoopBound<SocketRelay>? {
        guard let address = URL(string: base), address.scheme == "http", let host = address.host() else { return nil }
        let port = address.port ?? 80
        var fields = HTTPHeaders(headers)
        fields.replaceOrAdd(name: "Host", value: "\(host):\(port)")
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: fields)
        do {
            let (link, upgraded) = try await ClientBootstrap(group: device.eventLoop)
                .connectTimeout(connectTimeout)
                .channelOption(.socketOption(.tcp_nodelay), value: 1)
                .channelOption(.recvAllocator, value: LiveSockets.receiveBuffers)
                .connect(host: host, port: port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let upgrader = NIOTypedWebSocketClientUpgrader<NIOLoopBound<SocketRelay>?>(maxFrameSize: SocketRelay.maxFrameSize) {
                            channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                let relay = SocketRelay(module: channel, limits: limits)
                                try channel.pipeline.syncOperations.addHandler(RelayEnd(relay, side: .module))
                                return NIOLoopBound(relay, eventLoop: channel.eventLoop)
                            }
                        }
                        var configuration = NIOUpgradableHTTPClientPipelineConfiguration(
                            upgradeConfiguration: .init(
                                upgradeRequestHead: head, upgraders: [upgrader],
                                notUpgradingCompletionHandler: { $0.eventLoop.makeSucceededFuture(nil) }))
                        // Frames the module sends right after its answer, in the same read, are the socket's.
                        configuration.leftOverBytesStrategy = .forwardBytes
                        let upgraded = try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                            configuration: configuration)
                        return (channel, upgraded)
                    }
                }
            let late = device.eventLoop.scheduleTask(deadline: deadline) { link.close(promise: nil) }
            defer { late.cancel() }
            guard let relay = try await upgraded.get() else {
                link.close(promise: nil)
                return nil
            }
            LiveSockets.watch(link)
            try await device.eventLoop.submit { relay.value.closes(with: device) }.get()
            return relay
        } catch {
            return nil
        }
    }
}
