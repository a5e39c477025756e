import Contracts
import Foundation
import HuddleModules
import ServiceKitTesting
import Testing

/// Requests that ask to leave HTTP/1.1 for a protocol the server does not switch to (`Upgrade: h2c`
/// from `curl --http2`, `CONNECT`, a WebSocket handshake without its key) are answered as plain HTTP
/// and their connection closed: never an empty answer, never a connection left unread. An answer
/// after which the server closes the connection says so (`Connection: close`).
@Suite("Upgrades a server does not make")
struct UpgradeRequestTests {
    static let h2c = "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n"

    /// A server of each kind: plain HTTP (auth), live sockets (chat), the gateway.
    static let servers: [ServiceModule] = [.auth, .chat, .gateway]

    static func withServer(_ module: ServiceModule, _ body: (String) async throws -> Void) async throws {
        let builders = HuddleModules.builders
        let modules: [ServiceModule] = [.auth, .catalog] + ([.auth, .catalog].contains(module) ? [] : [module])
        let stack = try await TestStack.start(modules.map { try #require(builders[$0]) })
        do {
            try await body(stack.url(module))
            await stack.stop()
        } catch {
            await stack.stop()
            throw error
        }
    }

    /// Sends `request` on a new connection; answers once the server has closed it.
    static func answer(_ baseURL: String, _ requests: String...) async throws -> RawConnection {
        let connection = try await RawConnection.open(baseURL: baseURL)
        for request in requests {
            let answered = connection.answer.components(separatedBy: "HTTP/1.1 ").count
            try await connection.send(request)
            #expect(try await eventually { connection.answer.components(separatedBy: "HTTP/1.1 ").count > answered || connection.isClosed })
        }
        #expect(try await eventually { connection.isClosed }, "the connection is closed after the answer")
        return connection
    }

    @Test("a first request offering h2c is answered as HTTP/1.1, then the connection closed", arguments: servers)
    func firstRequest(module: ServiceModule) async throws {
        try await Self.withServer(module) { url in
            let connection = try await Self.answer(url, "GET /health HTTP/1.1\r\nHost: huddle\r\n\(Self.h2c)\r\n")
            #expect(connection.status == 200, "\(connection.answer)")
            #expect(connection.answer.contains(#""status":"ok""#))
            #expect(connection.answer.contains("\r\nConnection: close\r\n"), "the answer says the connection ends with it")
        }
    }

    @Test("a request asking to close its connection is answered saying so, then the connection closed", arguments: servers)
    func closeAsked(module: ServiceModule) async throws {
        try await Self.withServer(module) { url in
            let connection = try await Self.answer(
                url, "GET /health HTTP/1.1\r\nHost: huddle\r\n\r\n", "GET /health HTTP/1.1\r\nHost: huddle\r\nConnection: close\r\n\r\n")
            let answers = connection.answer.components(separatedBy: "HTTP/1.1 200 OK").dropFirst()
            #expect(answers.count == 2, "\(connection.answer)")
            #expect(answers.map { $0.contains("\r\nConnection: close\r\n") } == [false, true], "\(connection.answer)")
        }
    }

    @Test("an HTTP/1.0 request without keep-alive is answered, then its connection closed", arguments: servers)
    func http10(module: ServiceModule) async throws {
        try await Self.withServer(module) { url in
            let connection = try await Self.answer(url, "GET /health HTTP/1.0\r\nHost: huddle\r\n\r\n")
            #expect(connection.status == 200, "\(connection.answer)")
            #expect(connection.answer.contains("\r\nConnection: close\r\n"), "\(connection.answer)")
        }
    }

    @Test("through the gateway, a module's answer to a request asking to close says so")
    func closeAskedThroughTheGateway() async throws {
        try await Self.withServer(.gateway) { url in
            // Relayed to auth when kept alive; with the close asked, through the gateway's router.
            let connection = try await Self.answer(url, "GET /v1/users/me HTTP/1.1\r\nHost: huddle\r\nConnection: close\r\n\r\n")
            #expect(connection.status == 401, "\(connection.answer)")
            #expect(connection.answer.contains("\r\nConnection: close\r\n"), "\(connection.answer)")
            #expect(connection.answer.contains("application/problem+json"))
        }
    }

    @Test(
        "a request offering h2c on a kept-alive connection is answered, and the connection closed rather than left unread",
        arguments: servers)
    func laterRequest(module: ServiceModule) async throws {
        try await Self.withServer(module) { url in
            let connection = try await Self.answer(
                url, "GET /health HTTP/1.1\r\nHost: huddle\r\n\r\n", "GET /health HTTP/1.1\r\nHost: huddle\r\n\(Self.h2c)\r\n")
            #expect(connection.answer.components(separatedBy: "HTTP/1.1 200 OK").count == 3, "\(connection.answer)")
        }
    }

    @Test("CONNECT is answered with a problem and the connection closed", arguments: servers)
    func connect(module: ServiceModule) async throws {
        try await Self.withServer(module) { url in
            let connection = try await Self.answer(
                url, "GET /health HTTP/1.1\r\nHost: huddle\r\n\r\n", "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n")
            let answers = connection.answer.components(separatedBy: "HTTP/1.1 ")
            #expect(answers.count == 3 && answers[2].hasPrefix("4"), "\(connection.answer)")
            #expect(connection.answer.contains("application/problem+json"))
        }
    }

    @Test("a WebSocket handshake without its key is answered as plain HTTP, not with nothing", arguments: servers)
    func handshakeWithoutKey(module: ServiceModule) async throws {
        try await Self.withServer(module) { url in
            let connection = try await Self.answer(
                url,
                "GET /health HTTP/1.1\r\nHost: huddle\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\r\n")
            #expect(connection.status == 200, "\(connection.answer)")
        }
    }
}
