import Contracts
import Foundation
import ServiceKitTesting
import Testing

@testable import Gateway

/// The gateway bounds what a client may send before a request is parsed: a head too long, too
/// slow, or unreadable is answered at once with a problem and the connection closed.
@Suite("Request heads at the gateway")
struct RequestHeadTests {
    /// Opens a raw connection to a gateway in front of the fake upstream and hands it to `body`.
    static func withConnection(
        config: [String: String] = [:], _ body: (RawConnection) async throws -> Void
    ) async throws {
        try await FakeUpstream.with { upstream in
            try await GatewayTests.withGateway(catalog: upstream.url, config: config) { _, stack in
                let connection = try await RawConnection.open(baseURL: stack.url(.gateway))
                defer { Task { await connection.close() } }
                try await body(connection)
            }
        }
    }

    /// Waits for the server to answer and close, then says what it answered.
    static func answerAndClose(_ connection: RawConnection) async throws -> (status: Int?, problem: Problem?) {
        #expect(try await eventually { connection.isClosed })
        return (connection.status, try? HuddleJSON.decoder.decode(Problem.self, from: connection.body))
    }

    @Test("a head larger than the limit is answered 431 and the connection closed, not left waiting")
    func oversizedHead() async throws {
        try await Self.withConnection { connection in
            try await connection.send(
                "GET /v1/teams/echo HTTP/1.1\r\nHost: huddle\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n")
            let (status, problem) = try await Self.answerAndClose(connection)
            #expect(status == 431)
            #expect(problem?.code == ProblemCode.headerFieldsTooLarge.code)
        }
    }

    @Test("a request line longer than its limit is answered 414")
    func longURL() async throws {
        try await Self.withConnection { connection in
            try await connection.send("GET /v1/teams/echo?q=\(String(repeating: "x", count: 20_000)) HTTP/1.1\r\nHost: huddle\r\n\r\n")
            let (status, problem) = try await Self.answerAndClose(connection)
            #expect(status == 414)
            #expect(problem?.code == ProblemCode.uriTooLong.code)
        }
    }

    @Test("the limits are configurable")
    func configuredLimits() async throws {
        try await Self.withConnection(config: ["gateway.head.limit": "2000"]) { connection in
            try await connection.send(
                "GET /v1/teams/echo HTTP/1.1\r\nHost: huddle\r\nX-Mid: \(String(repeating: "m", count: 3000))\r\n\r\n")
            #expect(try await Self.answerAndClose(connection).status == 431)
        }
    }

    @Test("a head that does not arrive in time is answered 408 and the connection closed")
    func slowHead() async throws {
        try await Self.withConnection(config: ["gateway.head.timeout.ms": "300"]) { connection in
            // Part of a head, as a client sending one byte at a time would have sent by now.
            try await connection.send("GET /v1/teams/echo HTTP/1.1\r\nHost: hud")
            let (status, problem) = try await Self.answerAndClose(connection)
            #expect(status == 408)
            #expect(problem?.code == ProblemCode.requestTimeout.code)
        }
    }

    @Test("a connection that sends nothing is closed after the head timeout")
    func silentConnection() async throws {
        try await Self.withConnection(config: ["gateway.head.timeout.ms": "300"]) { connection in
            let (status, _) = try await Self.answerAndClose(connection)
            #expect(status == 408)
        }
    }

    @Test("bytes that are not HTTP are answered 400 with a problem, not left waiting")
    func garbage() async throws {
        try await Self.withConnection { connection in
            try await connection.send("\u{01}\u{02} nonsense \u{7f}\r\n\r\n")
            let (status, problem) = try await Self.answerAndClose(connection)
            #expect(status == 400)
            #expect(problem?.code == ProblemCode.malformedRequest.code)
        }
    }

    @Test("a connection with no request under way is closed after the idle timeout")
    func idleConnection() async throws {
        try await Self.withConnection(config: ["gateway.idle.timeout.ms": "300"]) { connection in
            try await connection.send("GET /v1/teams/echo HTTP/1.1\r\nHost: huddle\r\n\r\n")
            #expect(try await eventually { connection.isClosed })
            #expect(connection.status == 200, "answered before it was closed")
        }
    }

    @Test("requests slower than the idle timeout, relayed or through the router, are answered, not cut off")
    func slowRequestsOutlastTheIdleTimeout() async throws {
        // Half the module's 3 s: the check falls inside each request, and the second is sent well within it.
        try await Self.withConnection(config: ["gateway.idle.timeout.ms": "1500"]) { connection in
            // HEAD goes through the router; GET is relayed below it. The module takes 3 s for each.
            try await connection.send("HEAD /v1/teams/slow HTTP/1.1\r\nHost: huddle\r\n\r\n")
            #expect(try await eventually { connection.answer.contains("\r\n\r\n") || connection.isClosed })
            #expect(connection.status == 200)
            try await connection.send("GET /v1/teams/slow HTTP/1.1\r\nHost: huddle\r\n\r\n")
            #expect(try await eventually { connection.isClosed })
            #expect(connection.answer.hasSuffix("late"), "\(connection.answer)")
        }
    }

    @Test("a request expecting 100 Continue is told to send its body, then answered")
    func continueExpected() async throws {
        try await Self.withConnection { connection in
            try await connection.send(
                "POST /v1/teams/echo HTTP/1.1\r\nHost: huddle\r\nExpect: 100-continue\r\nContent-Length: 50\r\n\r\n")
            #expect(try await eventually { connection.answer == "HTTP/1.1 100 Continue\r\n\r\n" }, "\(connection.answer)")
            try await connection.send(String(repeating: "b", count: 50))
            #expect(try await eventually { connection.answer.contains("HTTP/1.1 200 OK") && connection.answer.contains("bodyBytes") })
            #expect(connection.answer.contains(#""bodyBytes":50"#), "\(connection.answer)")
        }
    }

    @Test("a 100 Continue for a pipelined request waits for the answer before it")
    func continueAfterEarlierAnswer() async throws {
        try await Self.withConnection { connection in
            try await connection.send(
                "GET /v1/teams/slow HTTP/1.1\r\nHost: huddle\r\n\r\n"
                    + "POST /v1/teams/echo HTTP/1.1\r\nHost: huddle\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
            #expect(try await eventually { connection.answer.contains("100 Continue") }, "\(connection.answer)")
            #expect(connection.answer.hasSuffix("late" + "HTTP/1.1 100 Continue\r\n\r\n"), "\(connection.answer)")
            try await connection.send("bbbbb")
            #expect(try await eventually { connection.answer.contains(#""bodyBytes":5"#) }, "\(connection.answer)")
        }
    }

    @Test("a request expecting 100 Continue with a body over the limit gets 413 instead; an HTTP/1.0 one gets no 100")
    func continueNotSent() async throws {
        try await Self.withConnection { connection in
            try await connection.send(
                "POST /v1/teams/echo HTTP/1.1\r\nHost: huddle\r\nExpect: 100-continue\r\nContent-Length: 5000000\r\n\r\n")
            #expect(try await eventually { connection.status != nil })
            #expect(connection.status == 413 && !connection.answer.contains("100 Continue"), "\(connection.answer)")
        }
        try await Self.withConnection { connection in
            try await connection.send(
                "POST /v1/teams/echo HTTP/1.0\r\nHost: huddle\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc")
            #expect(try await eventually { connection.answer.contains("bodyBytes") }, "\(connection.answer)")
            #expect(!connection.answer.contains("100 Continue"), "\(connection.answer)")
        }
    }

    @Test("requests kept alive on one connection, with bodies, are each answered")
    func keepAlive() async throws {
        try await Self.withConnection(config: ["gateway.head.timeout.ms": "2000"]) { connection in
            let body = String(repeating: "b", count: 50)
            try await connection.send(
                "POST /v1/teams/echo HTTP/1.1\r\nHost: huddle\r\nContent-Length: 50\r\n\r\n\(body)"
                    + "GET /v1/teams/echo HTTP/1.1\r\nHost: huddle\r\n\r\n")
            #expect(try await eventually { connection.answer.components(separatedBy: "HTTP/1.1 200").count == 3 })
            #expect(!connection.isClosed)
        }
    }
}

@Suite("Request head scanner")
struct RequestHeadScannerTests {
    static let limits = RequestHeadScanner.Limits(requestLine: 40, head: 120)

    func scanned(_ pieces: String...) -> RequestHeadScanner {
        var scanner = RequestHeadScanner(limits: Self.limits)
        for piece in pieces { scanner.consume(Array(piece.utf8)) }
        return scanner
    }

    @Test("a head in pieces is in progress until its empty line")
    func pieces() {
        #expect(scanned("GET / HTTP/1.1\r\nHo").progress == .inHead)
        let whole = scanned("GET / HTTP/1.1\r\nHo", "st: a\r\n", "\r\n")
        #expect(whole.progress == .betweenRequests)
        #expect(whole.headsSeen == 1)
    }

    @Test("bare line feeds end a head too, and blank lines before a request are not a head")
    func lineEndings() {
        #expect(scanned("\r\n", "GET / HTTP/1.1\nHost: a\n\n").headsSeen == 1)
        #expect(scanned("\r\n\r\n").progress == .betweenRequests)
    }

    @Test("a body is skipped by its length, then the next head is watched")
    func bodies() {
        let scanner = scanned("POST / HTTP/1.1\r\ncontent-LENGTH: 5\r\n\r\n12", "345GET / HTTP/1.1\r\n")
        #expect(scanner.headsSeen == 1)
        #expect(scanner.progress == .inHead)
        #expect(scanned("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n12").progress == .afterHead)
    }

    @Test("an upgrade or a chunked body stops the watch")
    func stops() {
        #expect(scanned("GET /live HTTP/1.1\r\nUpgrade: websocket\r\n\r\n").progress == .stopped)
        #expect(scanned("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n").progress == .stopped)
    }

    @Test("a long request line and a large head are refused as soon as they pass their limits")
    func refusals() {
        #expect(scanned("GET /\(String(repeating: "a", count: 40))").progress == .refused(.requestLineTooLong))
        #expect(scanned("GET / HTTP/1.1\r\nX: \(String(repeating: "a", count: 120))").progress == .refused(.headTooLarge))
        #expect(scanned("GET /\(String(repeating: "a", count: 20)) HTTP/1.1\r\n").progress == .inHead)
    }
}

/// What a client may hold at the gateway once its heads are in: a body has a time to arrive, a body's
/// request is charged to the rate limit as its head arrives, and an address holds so many connections.
@Suite("Bodies and connections held at the gateway")
struct HeldConnectionTests {
    static func withGateway(config: [String: String], _ body: (String) async throws -> Void) async throws {
        try await FakeUpstream.with { upstream in
            try await GatewayTests.withGateway(catalog: upstream.url, config: config) { _, stack in try await body(stack.url(.gateway)) }
        }
    }

    static let unfinishedBody =
        "POST /v1/teams HTTP/1.1\r\nHost: huddle\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n0123456789"

    @Test("a body that stops coming is answered 408 within its configured time, and the connection closed")
    func trickledBody() async throws {
        try await Self.withGateway(config: ["gateway.body.timeout.ms": "300"]) { gateway in
            let connection = try await RawConnection.open(baseURL: gateway)
            defer { Task { await connection.close() } }
            try await connection.send(Self.unfinishedBody)
            let (status, problem) = try await RequestHeadTests.answerAndClose(connection)
            #expect(status == 408)
            #expect(problem?.code == ProblemCode.requestTimeout.code)
            #expect(problem?.detail?.contains("body") == true)
        }
    }

    @Test("a request with a body is charged to the rate limit when its head arrives, and refused before its body")
    func chargedAtHead() async throws {
        let config = ["gateway.ratelimit.rate": "1", "gateway.ratelimit.burst": "2", "gateway.body.timeout.ms": "120000"]
        try await Self.withGateway(config: config) { gateway in
            // Connected first, so the heads go out one right after another, well within the second a token takes to return.
            var connections: [RawConnection] = []
            for _ in 0..<3 { connections.append(try await RawConnection.open(baseURL: gateway)) }
            defer { for connection in connections { Task { await connection.close() } } }
            for connection in connections { try await connection.send(Self.unfinishedBody) }
            // The heads are read on the gateway's event loops in parallel: whichever came third there is refused.
            let refused = try #require(try await poll({ connections.first { $0.isClosed } }, until: { $0 != nil }))
            #expect(refused.status == 429)
            #expect((try? HuddleJSON.decoder.decode(Problem.self, from: refused.body))?.code == ProblemCode.rateLimited.code)
            // The other two still wait for their bodies, charged.
            #expect(connections.filter { $0 !== refused }.allSatisfy { $0.status == nil && !$0.isClosed })
        }
    }

    @Test("an address holds at most its configured number of connections; the next is 429 and closed, a freed place is taken again")
    func connectionsPerAddress() async throws {
        try await Self.withGateway(config: ["gateway.connections.per.client": "3"]) { gateway in
            var opened: [RawConnection] = []
            for _ in 0..<4 { opened.append(try await RawConnection.open(baseURL: gateway)) }
            // The connections are set up on the gateway's event loops in parallel: whichever came last there is the one refused.
            let refused = try #require(try await poll({ opened.first { $0.isClosed } }, until: { $0 != nil }))
            #expect(refused.status == 429)
            #expect((try? HuddleJSON.decoder.decode(Problem.self, from: refused.body))?.code == ProblemCode.rateLimited.code)
            var held = opened.filter { $0 !== refused }
            #expect(held.count == 3 && held.allSatisfy { !$0.isClosed && $0.status == nil })
            await held.removeFirst().close()
            // Once the gateway has seen the close, the place is free again.
            let admitted = try await poll(
                {
                    let connection = try await RawConnection.open(baseURL: gateway)
                    // Before the gateway has seen the close, this one is refused and closed, perhaps before the request goes out.
                    try? await connection.send("GET /health HTTP/1.1\r\nHost: huddle\r\n\r\n")
                    let status = try await poll({ connection.status }, until: { $0 != nil })
                    await connection.close()
                    return status
                }, until: { $0 == 200 })
            #expect(admitted == 200)
            for connection in held { await connection.close() }
        }
    }
}
