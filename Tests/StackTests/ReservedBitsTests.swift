import Contracts
import Foundation
import HuddleModules
import ModuleLauncher
import ServiceClients
import ServiceKitTesting
import Testing

/// RFC 6455 §5.2: a frame with a reserved bit set, when no extension gives it a meaning, fails the
/// connection with 1002 — through the gateway, which rebuilt such a frame for the module without its
/// bit, and on a module's own port.
@Suite("Reserved bits on live sockets", StackTests.embeddedOnly)
struct ReservedBitsTests {
    /// A masked text frame of `payload` (under 64 KB), with RSV1 set when asked, as a client
    /// compressing without having negotiated compression would send it.
    static func maskedText(_ payload: String, rsv1: Bool = false) -> [UInt8] {
        let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        let bytes = Array(payload.utf8)
        let masked = bytes.enumerated().map { $0.element ^ key[$0.offset % 4] }
        let length: [UInt8] =
            bytes.count < 126 ? [0x80 | UInt8(bytes.count)] : [0x80 | 126, UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)]
        return [rsv1 ? 0xC1 : 0x81] + length + key + masked
    }

    /// Opens a live socket at `path` as `token`'s player on a raw connection.
    static func upgraded(_ baseURL: String, path: String, token: String) async throws -> RawConnection {
        let connection = try await RawConnection.open(baseURL: baseURL)
        try await connection.send(
            "GET \(path) HTTP/1.1\r\nHost: huddle\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                + "Authorization: Bearer \(token)\r\n\r\n")
        #expect(try await poll({ connection.status }, until: { $0 != nil }) == 101, "\(baseURL)\(path)")
        return connection
    }

    @Test(
        "a frame with RSV1 set and no extension is closed with 1002, through the gateway (one relay for every socket) and on the module's own port"
    )
    func closedWithProtocolError() async throws {
        try await StackTests.withModules { stack, _ in
            let gateway = TestClient(baseURL: stack.url(of: .gateway))
            let player = try await gateway.register(name: "Squeezer")
            let sockets: [(String, String)] = [
                (stack.url(of: .gateway), ChatAPI.live.path()), (stack.url(of: .chat), ChatAPI.live.path()),
            ]
            for (baseURL, path) in sockets {
                let connection = try await Self.upgraded(baseURL, path: path, token: player.accessToken)
                defer { Task { await connection.close() } }
                try await connection.send(bytes: Self.maskedText(#"{"type":"subscribe"}"#, rsv1: true))
                let close = try await poll(
                    { SocketPingTests.frames(connection.bytesAfterHead).first { $0.opcode == 0x8 } }, until: { $0 != nil })
                #expect(close?.payload.prefix(2) == [0x03, 0xEA], "1002 at \(baseURL)\(path): \(String(describing: close))")
            }
        }
    }
}
