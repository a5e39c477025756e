import Foundation
import NIOCore
import NIOPosix

/// A device that opens a live socket, sends its frames and then reads nothing, as a phone whose app
/// froze does: what the server sends piles up in the connection's buffers until the server's
/// writes wait for room. For tests of what a server does with a device that cannot keep up.
///
/// Written on a bare NIO channel, because a WebSocket client reads everything that arrives.
public struct StalledSocket: Sendable {
    private let channel: any Channel

    /// Opens `path` on `baseURL` (`http://host:port`) as the holder of `token` and sends `frames`
    /// (text) in the same write as the upgrade request; reads nothing, not even the upgrade's answer.
    public static func connect(baseURL: String, path: String, token: String, frames: [String]) async throws -> StalledSocket {
        guard let url = URL(string: baseURL), let host = url.host, let port = url.port else {
            throw URLError(.badURL)
        }
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.autoRead, value: false)
            // A small receive window, so the server's writes fill it after a few frames.
            .channelOption(.socketOption(.so_rcvbuf), value: 4096)
            .connect(host: host, port: port).get()
        var bytes = channel.allocator.buffer(
            string: "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer \(token)\r\n\r\n")
        for text in frames { Self.writeMaskedText(text, to: &bytes) }
        try await channel.writeAndFlush(bytes).get()
        return StalledSocket(channel: channel)
    }

    /// Whether the server ended the connection within `timeout`, while this device read nothing.
    /// Only a reset reaches a device that does not read (a polite close waits behind the unread data).
    public func isCutOff(within timeout: Duration) async -> Bool {
        (try? await eventually(within: timeout, every: .milliseconds(20)) { !channel.isActive }) ?? !channel.isActive
    }

    /// A message long enough (about 2 KB) that a few fill a connection that is not read.
    public static let longMessage = String(repeating: "long message ", count: 150)

    /// Calls `send` until this device is cut off or `limit` messages were sent; answers how many.
    public func flood(limit: Int = 3000, send: () async throws -> Void) async throws -> Int {
        var sent = 0
        while sent < limit, await !isCutOff(within: .zero) {
            sent += 1
            try await send()
        }
        return sent
    }

    /// This device's end of the connection, to find it among the machine's (`KernelTCP`).
    public var localPort: Int? { channel.localAddress?.port }

    public func close() async {
        try? await channel.close()
    }

    /// A client's text frame: FIN, opcode 1, masked (RFC 6455 §5.2), with a zero mask for brevity.
    private static func writeMaskedText(_ text: String, to buffer: inout ByteBuffer) {
        let payload = Array(text.utf8)
        buffer.writeInteger(UInt8(0x81))
        switch payload.count {
        case ..<126: buffer.writeInteger(UInt8(0x80 | payload.count))
        case ..<65_536:
            buffer.writeInteger(UInt8(0x80 | 126))
            buffer.writeInteger(UInt16(payload.count))
        default:
            buffer.writeInteger(UInt8(0x80 | 127))
            buffer.writeInteger(UInt64(payload.count))
        }
        buffer.writeBytes([0, 0, 0, 0])
        buffer.writeBytes(payload)
    }
}
