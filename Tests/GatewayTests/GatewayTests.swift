import Contracts
import Foundation
import Gateway
import HTTPTypes
import HuddleEffects
import HummingbirdWSClient
import Logging
import NIOHTTP1
import NIOWebSocket
import ServiceHTTP
import ServiceKitTesting
import Testing

@Suite("Gateway")
struct GatewayTests {
    static let builder = ModuleBuilder.gateway

    /// A gateway whose catalog upstream is `upstream` (any URL, reachable or not).
    static func withGateway<T>(
        catalog upstream: String, config: [String: String] = [:], effects: Effects = .system,
        body: (TestClient, TestStack) async throws -> T
    ) async throws -> T {
        try await TestStack.with([builder], config: config, directory: [.catalog: upstream], effects: effects) { stack in
            try await body(stack.client(.gateway), stack)
        }
    }

    @Test("routes by prefix, passes headers through, drops hop-by-hop ones, propagates the request id")
    func forwarding() async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url) { gateway, _ in
                let response = try await gateway.raw(
                    .POST, "/v1/teams/echo?x=1", rawBody: Data(repeating: 7, count: 1000), token: "abc",
                    headers: [
                        "X-Request-Id": "req-42", "Connection": "keep-alive, X-Secret-Hop", "X-Secret-Hop": "1",
                        "X-Forwarded-For": "10.0.0.9",
                    ])
                #expect(response.status == 200)
                #expect(response.header("X-Request-Id") == "req-42")
                let echo = try response.decode(FakeUpstream.Echo.self)
                #expect(echo.method == "POST")
                #expect(echo.path == "/v1/teams/echo?x=1")
                #expect(echo.bodyBytes == 1000)
                #expect(echo.headers["authorization"] == "Bearer abc")
                #expect(echo.headers["x-request-id"] == "req-42")
                #expect(echo.headers["x-forwarded-for"] == "10.0.0.9, 127.0.0.1")
                #expect(echo.headers["x-secret-hop"] == nil)
            }
        }
    }

    @Test("streams large responses through")
    func streaming() async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url) { gateway, _ in
                let response = try await gateway.raw(.GET, "/v1/teams/big")
                #expect(response.status == 200)
                #expect(response.body.count == 4 * 1024 * 1024)
            }
        }
    }

    @Test("keeps connections to a module open and reuses them")
    func keepAlive() async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url) { gateway, _ in
                let first = try await gateway.raw(.GET, "/v1/teams/echo").decode(FakeUpstream.Echo.self)
                let second = try await gateway.raw(.POST, "/v1/teams/echo", rawBody: Data(count: 10)).decode(FakeUpstream.Echo.self)
                let bodiless = try await gateway.call(CatalogAPI.deleteTeam, "echo").decode(FakeUpstream.Echo.self)
                #expect(first.fromPort != 0)
                #expect(second.fromPort == first.fromPort)
                #expect(bodiless.fromPort == first.fromPort)
                #expect(bodiless.method == "DELETE")
            }
        }
    }

    @Test("a module that closes idle connections still gets every request, on a fresh connection")
    func moduleClosesIdleConnections() async throws {
        try await FakeUpstream.with(idleTimeout: .milliseconds(100)) { upstream in
            try await Self.withGateway(catalog: upstream.url) { gateway, _ in
                let first = try await gateway.raw(.GET, "/v1/teams/echo").decode(FakeUpstream.Echo.self)
                try await Task.sleep(for: .milliseconds(400))
                let again = try await gateway.raw(.GET, "/v1/teams/echo")
                #expect(again.status == 200)
                #expect(try again.decode(FakeUpstream.Echo.self).fromPort != first.fromPort)
                try await Task.sleep(for: .milliseconds(400))
                // Not idempotent, so never sent twice: it must find a live connection the first time.
                let post = try await gateway.raw(.POST, "/v1/teams/echo", rawBody: Data(count: 10))
                #expect(post.status == 200)
            }
        }
    }

    @Test("a connection to a module is closed at its age when idle, and the next request opens a fresh one")
    func connectionsRetireAtTheirAge() async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url, config: ["gateway.upstream.age.ms": "300"]) { gateway, _ in
                let first = try await gateway.raw(.GET, "/v1/teams/echo").decode(FakeUpstream.Echo.self)
                let young = try await gateway.raw(.GET, "/v1/teams/echo").decode(FakeUpstream.Echo.self)
                #expect(young.fromPort == first.fromPort)
                // Past its age while idle in the pool: closed then, not handed to the next request.
                try await Task.sleep(for: .milliseconds(600))
                let later = try await gateway.raw(.GET, "/v1/teams/echo").decode(FakeUpstream.Echo.self)
                #expect(later.fromPort != first.fromPort)
            }
        }
    }

    @Test("a module that answers before reading a large body: the client gets that answer, and the gateway goes on")
    func earlyAnswerToStreamedBody() async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url) { gateway, _ in
                // Over the size read whole, so the body streams to the module.
                let refused = try await gateway.raw(.POST, "/v1/teams/closed-door", rawBody: Data(count: 300 * 1024))
                #expect(refused.status == 401)
                let echo = try await gateway.raw(.POST, "/v1/teams/echo", rawBody: Data(count: 300 * 1024))
                #expect(echo.status == 200)
                #expect(try echo.decode(FakeUpstream.Echo.self).bodyBytes == 300 * 1024)
            }
        }
    }

    @Test(
        "pipelined requests are answered in the order they came, whether relayed below the router or passed to it",
        arguments: [
            ["GET", "POST chunked", "GET", "DELETE"], ["POST chunked", "GET", "GET"], ["GET", "GET", "POST", "GET"],
        ])
    func pipelining(_ requests: [String]) async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url) { _, stack in
                let connection = try await RawConnection.open(baseURL: stack.url(.gateway))
                defer { Task { await connection.close() } }
                try await connection.send(Self.pipelined(requests))
                let answered = { connection.answer.components(separatedBy: "HTTP/1.1 200").count - 1 }
                #expect(try await eventually { answered() == requests.count })
                let order = connection.answer.matches(of: /n=(\d)/).map { String($0.output.1) }
                #expect(order == requests.indices.map(String.init))
                #expect(connection.answer.components(separatedBy: "\"bodyBytes\":5").count - 1 == requests.count { $0.hasPrefix("POST") })
            }
        }
    }

    @Test("requests sent while one is relayed wait for its answer, and are answered after it in the order they came")
    func pipelinedWhileRelaying() async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url) { _, stack in
                let connection = try await RawConnection.open(baseURL: stack.url(.gateway))
                defer { Task { await connection.close() } }
                try await connection.send("GET /v1/teams/slow HTTP/1.1\r\nHost: huddle\r\n\r\n")
                #expect(try await eventually { upstream.slowStarted == 1 })
                // The connection is still read while the slow one is relayed: these arrive then.
                try await connection.send(Self.pipelined(["GET", "POST"]))
                #expect(try await eventually { connection.answer.components(separatedBy: "HTTP/1.1 200").count - 1 == 3 })
                let late = try #require(connection.answer.range(of: "late"))
                let echoes = connection.answer.matches(of: /n=(\d)/)
                #expect(echoes.map { String($0.output.1) } == ["0", "1"])
                #expect(echoes.allSatisfy { $0.range.lowerBound > late.upperBound })
            }
        }
    }

    @Test(
        "a malformed request pipelined behind others is refused after their answers, not in their place",
        arguments: [["GET", "GET"], ["POST chunked", "GET"], ["GET", "POST"], []])
    func malformedBehindPipelined(_ requests: [String]) async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url) { _, stack in
                // A header line without its colon, and a chunked body whose chunk size is not a number (the
                // request is then with the router, its end never to come): the decoder fails on each after
                // reading the requests before.
                let malformed = [
                    "GET /v1/teams/echo HTTP/1.1\r\nHost huddle\r\n\r\n",
                    "POST /v1/teams/echo HTTP/1.1\r\nHost: huddle\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
                ]
                for bad in malformed {
                    let connection = try await RawConnection.open(baseURL: stack.url(.gateway))
                    defer { Task { await connection.close() } }
                    try await connection.send(Self.pipelined(requests) + bad)
                    #expect(try await eventually { connection.answer.contains("HTTP/1.1 400") })
                    let statuses = connection.answer.matches(of: /HTTP\/1\.1 (\d{3})/).map { String($0.output.1) }
                    #expect(statuses == Array(repeating: "200", count: requests.count) + ["400"])
                    let order = connection.answer.matches(of: /n=(\d)/).map { String($0.output.1) }
                    #expect(order == requests.indices.map(String.init))
                    #expect(connection.answer.contains("MALFORMED_REQUEST"))
                }
            }
        }
    }

    @Test("an HTTP/1.0 request is answered; without keep-alive its connection then closes, with keep-alive it takes the next")
    func http10() async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url) { _, stack in
                let closing = try await RawConnection.open(baseURL: stack.url(.gateway))
                defer { Task { await closing.close() } }
                try await closing.send("GET /v1/teams/echo?n=0 HTTP/1.0\r\nHost: huddle\r\n\r\n")
                #expect(try await eventually { closing.isClosed })
                #expect(closing.answer.hasPrefix("HTTP/1.1 200") && closing.answer.contains("n=0"))

                let kept = try await RawConnection.open(baseURL: stack.url(.gateway))
                defer { Task { await kept.close() } }
                for number in 0..<2 {
                    try await kept.send("GET /v1/teams/echo?n=\(number) HTTP/1.0\r\nHost: huddle\r\nConnection: keep-alive\r\n\r\n")
                    #expect(try await eventually { kept.answer.contains("n=\(number)") })
                }
                #expect(!kept.isClosed)
                #expect(upstream.echoed == 3)
            }
        }
    }

    /// `requests` (a method, or "POST chunked") to the fake module's echo, numbered in `n`, as one write.
    static func pipelined(_ requests: [String]) -> String {
        var wire = ""
        for (number, request) in requests.enumerated() {
            let method = request.split(separator: " ")[0]
            wire += "\(method) /v1/teams/echo?n=\(number) HTTP/1.1\r\nHost: huddle\r\n"
            switch request {
            case "POST chunked": wire += "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
            case "POST": wire += "Content-Length: 5\r\n\r\nhello"
            default: wire += "\r\n"
            }
        }
        return wire
    }

    @Test("a request on its way through the gateway when it begins to stop still gets its answer")
    func stopWhileAnswering() async throws {
        try await FakeUpstream.with { upstream in
            let stack = try await TestStack.start([Self.builder], directory: [.catalog: upstream.url])
            async let answer = stack.client(.gateway).raw(.GET, "/v1/teams/slow")
            #expect(try await eventually { upstream.slowStarted == 1 })
            await stack.stop()
            let response = try await answer
            #expect(response.status == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == "late")
        }
    }

    @Test("a TRACE's body never reaches the module, where it would be read as a request the gateway did not route")
    func traceBodyIsNotForwarded() async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url) { gateway, stack in
                let smuggled = "POST /v1/teams/echo HTTP/1.1\r\nHost: catalog\r\nContent-Length: 0\r\n\r\n"
                let connection = try await RawConnection.open(baseURL: stack.url(.gateway))
                defer { Task { await connection.close() } }
                try await connection.send(
                    "TRACE /v1/teams/echo HTTP/1.1\r\nHost: huddle\r\nContent-Length: \(smuggled.utf8.count)\r\n\r\n\(smuggled)")
                #expect(try await eventually { connection.status != nil })
                #expect(connection.status == 200)
                // Had the body gone on, the module would have answered it too: either this request would
                // get that answer on the reused connection, or the module would have echoed three times.
                let next = try await gateway.raw(.GET, "/v1/teams/echo")
                #expect(try next.decode(FakeUpstream.Echo.self).method == "GET")
                #expect(upstream.echoed == 2)
            }
        }
    }

    @Test("bodies over the limit get 413, with or without a Content-Length")
    func bodyLimit() async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url, config: ["gateway.body.limit": "1024"]) { gateway, _ in
                let declared = try await gateway.raw(.POST, "/v1/teams/echo", rawBody: Data(count: 4096))
                #expect(declared.status == 413)
                #expect(declared.problem?.code == "PAYLOAD_TOO_LARGE")
                let small = try await gateway.raw(.POST, "/v1/teams/echo", rawBody: Data(count: 512))
                #expect(small.status == 200)
                // Without a Content-Length the body streams to the module until it passes the limit.
                let undeclared = try await gateway.raw(.POST, "/v1/teams/echo", rawBody: Data(count: 4096), chunked: true)
                #expect(undeclared.status == 413)
                #expect(undeclared.problem?.code == "PAYLOAD_TOO_LARGE")
                let smallUndeclared = try await gateway.raw(.POST, "/v1/teams/echo", rawBody: Data(count: 512), chunked: true)
                #expect(smallUndeclared.status == 200)
                #expect(try smallUndeclared.decode(FakeUpstream.Echo.self).bodyBytes == 512)
            }
        }
    }

    @Test("a client over its rate gets 429 with Retry-After and the RateLimit fields naming a per-gateway policy")
    func rateLimit() async throws {
        try await FakeUpstream.with { upstream in
            let config = ["gateway.ratelimit.rate": "1", "gateway.ratelimit.burst": "3"]
            try await Self.withGateway(catalog: upstream.url, config: config) { gateway, _ in
                // Ten at once against a burst of three: however slow the machine, most are refused.
                let answers = try await withThrowingTaskGroup(of: TestClient.Response.self) { group in
                    for _ in 0..<10 { group.addTask { try await gateway.raw(.GET, "/v1/teams/echo") } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect((3...6).contains(answers.filter { $0.status == 200 }.count))
                let limited = try #require(answers.first { $0.status == 429 })
                #expect(limited.header("Retry-After") == "1")
                #expect(limited.header("RateLimit-Policy") == #""per-gateway-client";q=3;w=3"#)
                #expect(limited.header("RateLimit") == #""per-gateway-client";r=0;t=1"#)
                #expect(limited.problem?.code == "RATE_LIMITED")
                // The gateway's own endpoints are not counted.
                #expect(try await gateway.raw(.GET, "/health").status == 200)
            }
        }
    }

    @Test("a module that refuses connections gets a fast 503")
    func refusedUpstream() async throws {
        try await Self.withGateway(catalog: "http://127.0.0.1:1") { gateway, _ in
            let started = ContinuousClock.now
            let response = try await gateway.call(CatalogAPI.teams)
            #expect(response.status == 503)
            #expect(response.problem?.code == "UPSTREAM_UNAVAILABLE")
            // Not waiting for the module: a hang, not this machine's speed, is what this catches.
            #expect(ContinuousClock.now - started < .seconds(30))
            // A module nobody configured is unavailable too, not a 500.
            #expect(try await gateway.call(ChatAPI.rooms).status == 503)
        }
    }

    @Test("a module that is too slow gets 504 when its timeout passes")
    func slowUpstream() async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url, config: ["gateway.upstream.timeout.ms": "300"]) { gateway, _ in
                // The module would answer 200 after 3 s: a 504 is the gateway's own timeout.
                let response = try await gateway.raw(.GET, "/v1/teams/slow")
                #expect(response.status == 504)
                #expect(response.problem?.code == "UPSTREAM_TIMEOUT")
            }
        }
    }

    @Test("a slow request on a connection to the module that answered others in time still gets 504 at its own timeout")
    func slowAfterAnswered() async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url, config: ["gateway.upstream.timeout.ms": "300"]) { _, stack in
                // One client connection, so one event loop and the module's connection it keeps.
                let connection = try await RawConnection.open(baseURL: stack.url(.gateway))
                defer { Task { await connection.close() } }
                try await connection.send(Self.pipelined(["GET"]))
                #expect(try await eventually { connection.answer.contains("n=0") })
                try await connection.send("GET /v1/teams/slow HTTP/1.1\r\nHost: huddle\r\n\r\n")
                // The module would answer 200 after 3 s.
                #expect(try await eventually { connection.answer.contains("UPSTREAM_TIMEOUT") })
                #expect(connection.answer.contains("HTTP/1.1 504"))
                #expect(!connection.answer.contains("late"))
            }
        }
    }

    @Test("internal paths and unknown paths are 404")
    func notRouted() async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url) { gateway, _ in
                for path in ["/internal/secret", "/INTERNAL/secret", "/internal/sessions/revoked", "/nope", "/v2/teams"] {
                    let response = try await gateway.raw(.GET, path)
                    #expect(response.status == 404, "\(path)")
                    #expect(response.header("Content-Type") == "application/problem+json")
                }
            }
        }
    }

    @Test("the public health says up or down only; which module is down, and the metrics, are on the operations listener")
    func ownEndpoints() async throws {
        let opsPort = try await freeLoopbackPort()
        let config = ["gateway.modules": "catalog,chat", "gateway.ops.http.port": "\(opsPort)"]
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url, config: config) { gateway, _ in
                let health = try await gateway.raw(.GET, "/health")
                #expect(health.status == 503)
                let summary = try JSONSerialization.jsonObject(with: health.body) as? [String: Any]
                #expect(summary?.keys.sorted() == ["status"])
                #expect(summary?["status"] as? String == "degraded")
                #expect(try await gateway.raw(.GET, "/metrics").status == 404)

                let operations = TestClient(baseURL: "http://127.0.0.1:\(opsPort)")
                let detailed = try await operations.raw(.GET, "/health")
                #expect(detailed.status == 503)
                let report = try JSONSerialization.jsonObject(with: detailed.body) as? [String: Any]
                #expect(report?["status"] as? String == "degraded")
                #expect(report?["upstreams"] as? [String: String] == ["catalog": "up", "chat": "unknown"])

                _ = try await gateway.raw(.GET, "/v1/teams/echo")
                let metrics = try await operations.raw(.GET, "/metrics")
                #expect(metrics.status == 200)
                // Requests are counted and timed by route, method and status.
                let lines = metrics.text.split(separator: "\n")
                #expect(
                    lines.contains {
                        $0.hasPrefix("hb_requests{") && $0.contains("http_route=\"/v1/teams/{id}\"")
                            && $0.contains("http_response_status_code=\"200\"")
                    })
                #expect(lines.contains { $0.hasPrefix("http_server_request_duration") })

                let openAPI = try await gateway.raw(.GET, "/openapi.json")
                let document = try JSONSerialization.jsonObject(with: openAPI.body) as? [String: Any]
                let paths = document?["paths"] as? [String: Any]
                #expect(paths?["/v1/auth/register"] != nil)
                #expect(paths?["/v1/users/{id}/follow"] != nil)
            }
        }
    }

    @Test("WebSockets are proxied both ways, and a refused upgrade gets the module's answer")
    func webSocketProxy() async throws {
        try await FakeUpstream.with { upstream in
            try await Self.withGateway(catalog: upstream.url) { gateway, _ in
                let wsURL = "ws" + gateway.baseURL.dropFirst("http".count) + "/v1/teams/live"
                let (replies, replyInput) = AsyncStream<String>.makeStream()
                // A request id that could forge a log line is replaced, as on plain HTTP requests.
                let headers: HTTPFields = [.authorization: "Bearer let-me-in", .requestID: "forged\u{7F}id"]
                try await WebSocketClient.connect(
                    url: wsURL, configuration: .init(additionalHeaders: headers), logger: Logger(label: "ws-test")
                ) { inbound, outbound, _ in
                    try await outbound.write(.text("hello"))
                    try await outbound.write(.text("again"))
                    try await outbound.write(.text("id?"))
                    var received = 0
                    for try await message in inbound.messages(maxSize: 1 << 16) {
                        if case .text(let text) = message { replyInput.yield(text) }
                        received += 1
                        if received == 3 { break }
                    }
                    try await outbound.close(.normalClosure, reason: nil)
                }
                replyInput.finish()
                var collected: [String] = []
                for await reply in replies { collected.append(reply) }
                #expect(collected.prefix(2) == ["echo: hello", "echo: again"])
                let forwardedID = try #require(collected.last)
                #expect(forwardedID != "forged\u{7F}id")
                #expect(UUID(uuidString: forwardedID) != nil)

                // Without credentials the module refuses; the client sees a plain HTTP answer, no socket.
                await #expect(throws: (any Error).self) {
                    try await WebSocketClient.connect(url: wsURL, logger: Logger(label: "ws-test")) { _, _, _ in }
                }
            }
        }
    }
}
