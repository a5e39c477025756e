import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ServiceHTTP
import ServiceKitTesting

/// A stand-in module for gateway tests: echoes what it received, answers slowly on request,
/// and runs a WebSocket echo, on a port of its own.
struct FakeUpstream {
    let url: String
    private let echoes: NIOLockedValueBox<Int>
    private let slowOnes: NIOLockedValueBox<Int>

    /// How many echo requests it answered.
    var echoed: Int { echoes.withLockedValue { $0 } }
    /// How many slow requests it began to answer.
    var slowStarted: Int { slowOnes.withLockedValue { $0 } }

    struct Echo: ResponseCodable {
        var method: String
        var path: String
        var headers: [String: String]
        var bodyBytes: Int
        /// The port the gateway's connection came from: equal ports mean a reused connection.
        var fromPort: Int
    }

    /// `idleTimeout`: how long the module keeps an unused connection open (default: for ever).
    static func with<T>(idleTimeout: Duration? = nil, _ body: (FakeUpstream) async throws -> T) async throws -> T {
        let router = Router(context: HuddleRequestContext.self)
        let echoes = NIOLockedValueBox(0)
        let slowOnes = NIOLockedValueBox(0)
        let echo: @Sendable (Request, HuddleRequestContext) async throws -> Echo = { request, context in
            echoes.withLockedValue { $0 += 1 }
            return try await Self.echo(request, context: context)
        }
        router.on("/v1/teams/echo", method: .get) { request, context in try await echo(request, context) }
        router.on("/v1/teams/echo", method: .post) { request, context in try await echo(request, context) }
        router.on("/v1/teams/echo", method: .delete) { request, context in try await echo(request, context) }
        router.on("/v1/teams/echo", method: .trace) { request, context in try await echo(request, context) }
        router.post("/v1/teams/closed-door") { _, _ in
            // Like a module refusing a request: it answers before reading the body.
            Response(status: .unauthorized)
        }
        router.get("/v1/teams/slow") { _, _ in
            slowOnes.withLockedValue { $0 += 1 }
            try await Task.sleep(for: .seconds(3))
            return "late"
        }
        router.get("/v1/teams/big") { _, _ in
            // 4 MiB in 64 KiB chunks, to show the gateway streams rather than collects.
            let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: 64 * 1024)
            return Response(
                status: .ok,
                body: ResponseBody { writer in
                    for _ in 0..<64 { try await writer.write(chunk) }
                    try await writer.finish(nil)
                })
        }
        router.get("/health") { _, _ in "ok" }
        router.get("/internal/secret") { _, _ in "should never be reachable through the gateway" }

        let wsRouter = Router(context: BasicWebSocketRequestContext.self)
        wsRouter.ws("/v1/teams/live") { request, _ in
            // Like a real module: refuse sockets without credentials.
            request.headers[.authorization] == "Bearer let-me-in" ? .upgrade([:]) : .dontUpgrade
        } onUpgrade: { inbound, outbound, context in
            for try await message in inbound.messages(maxSize: 1 << 20) {
                guard case .text(let text) = message else { continue }
                // "id?" asks for the request id the upgrade arrived with.
                let reply = text == "id?" ? context.request.headers[.requestID] ?? "none" : "echo: \(text)"
                try await outbound.write(.text(reply))
            }
        }
        return try await withServerOnPort0({ onListening in
            Application(
                router: router,
                server: .http1WebSocketUpgrade(
                    webSocketRouter: wsRouter, configuration: .init(http1: .init(idleTimeout: idleTimeout.map { TimeAmount($0) }))),
                configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
                logger: Logger(label: "fake-upstream"))
        }) { url in try await body(FakeUpstream(url: url, echoes: echoes, slowOnes: slowOnes)) }
    }

    private static func echo(_ request: Request, context: HuddleRequestContext) async throws -> Echo {
        let body = try await request.body.collect(upTo: 8 << 20)
        var headers: [String: String] = [:]
        for field in request.headers { headers[field.name.canonicalName] = field.value }
        return Echo(
            method: request.method.rawValue, path: request.uri.string, headers: headers, bodyBytes: body.readableBytes,
            fromPort: context.remoteAddress?.port ?? 0)
    }
}
