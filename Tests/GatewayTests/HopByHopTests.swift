import NIOHTTP1
import ServiceContextModule
import Testing

@testable import Gateway

/// What of a request's and an answer's headers goes on to the other connection (RFC 9110 §7.6.1).
@Suite("Hop-by-hop headers")
struct HopByHopTests {
    @Test("a module gets the end-to-end headers in their order, whatever their case; not the hop-by-hop ones, nor those Connection lists")
    func upstream() {
        let client = HTTPHeaders([
            ("Host", "huddle.example"), ("Authorization", "Bearer abc"), ("CONNECTION", "keep-alive, X-Secret-Hop"),
            ("x-secret-HOP", "1"), ("Keep-Alive", "timeout=5"), ("TE", "trailers"), ("Proxy-Authorization", "Basic eA=="),
            ("Content-Length", "12"), ("Accept", "application/json"), ("X-Forwarded-For", "10.0.0.9"),
            ("x-forwarded-for", "10.0.0.10"), ("X-Request-Id", "from-client"),
        ])
        let forwardedFor = TrustedProxies.none.client(peer: "127.0.0.1", headers: client).forwardedFor
        let upstream = HopByHop.upstreamHeaders(client, requestID: "req-42", trace: nil, forwardedFor: forwardedFor)
        #expect(
            Array(upstream.map { "\($0.name): \($0.value)" }) == [
                "Authorization: Bearer abc", "Accept: application/json", "X-Request-Id: req-42",
                "X-Forwarded-For: 10.0.0.9, 10.0.0.10, 127.0.0.1",
            ])
    }

    @Test("the client gets a module's end-to-end headers; not its framing, date, server, nor what its Connection lists")
    func returned() {
        let module = HTTPHeaders([
            ("Content-Type", "application/json"), ("Connection", "X-Module-Hop"), ("X-Module-Hop", "1"),
            ("transfer-encoding", "chunked"), ("Date", "Mon, 30 Nov 2026 10:00:00 GMT"), ("server", "module"),
            ("ETag", "\"v1\""), ("Content-Length", "2"),
        ])
        #expect(
            Array(HopByHop.returnable(module).map { "\($0.name): \($0.value)" }) == [
                "Content-Type: application/json", "ETag: \"v1\"", "Content-Length: 2",
            ])
    }
}
